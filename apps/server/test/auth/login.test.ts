import { APP_MSG, MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD, sessionFor } from '../support/world';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (email: string, password: string, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

describe('POST /api/auth/login', () => {
  it('signs in an owner and reports the strongest role held', async () => {
    const response = await login('owner@alpha.test', PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      secToken: expect.any(String),
      userId: t.world.users.owner.id,
      userEmail: 'owner@alpha.test',
      role: 'organization_owner',
    });
    // 256 random bits, base64url
    expect(body.secToken.length).toBeGreaterThanOrEqual(43);
  });

  it('compares emails case-insensitively', async () => {
    const response = await login('  ADMIN@Alpha.test ', PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().role).toBe('organization_admin');
  });

  it('reports system_admin for a system admin', async () => {
    expect((await login('sys@allot.test', PASSWORD)).json().role).toBe('system_admin');
  });

  it('answers a wrong password and an unknown email alike, with the spec text', async () => {
    const wrong = await login('admin@school-a.test', 'not-the-password');
    const unknown = await login('nobody@nowhere.test', 'not-the-password');
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'invalid_credentials', message: MSG.signInFailed });
    }
  });

  it('refuses an unverified account only after the password is right', async () => {
    expect((await login('new@alpha.test', 'wrong-password!')).statusCode).toBe(401);
    const response = await login('new@alpha.test', PASSWORD);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'not_verified', message: MSG.notVerified });
  });

  it('gives a teacher no panel access', async () => {
    const response = await login('teacher@school-a.test', PASSWORD);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'no_panel_access', message: APP_MSG.noPanelAccess });
  });

  it('validates the body with the spec messages', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'not-an-email' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'invalid_input',
      details: { fields: { email: MSG.invalidEmail, password: MSG.required } },
    });
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_input');
  });

  it('stores only a hash of the token and an argon2id hash of the password', async () => {
    const token = (await login('owner@alpha.test', PASSWORD)).json().secToken as string;
    const stored = await rows<{ token_hash: string }>(t.db, sql`select token_hash from sessions`);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.some((s) => s.token_hash === token)).toBe(false);
    const [user] = await rows<{ password_hash: string }>(
      t.db,
      sql`select password_hash from users where email = 'owner@alpha.test'`,
    );
    expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('sessions', () => {
  it('validate answers true only for the token owner id and email', async () => {
    const token = await t.login('owner@alpha.test', PASSWORD);
    const validate = (payload: object, headers: Record<string, string> = bearer(token)) =>
      t.app.inject({ method: 'POST', url: '/api/auth/validate', payload, headers });
    const { owner, admin } = t.world.users;
    expect((await validate({ id: owner.id, email: 'OWNER@alpha.test' })).json()).toEqual({ valid: true });
    expect((await validate({ id: admin.id, email: owner.email })).json()).toEqual({ valid: false });
    expect((await validate({ id: owner.id, email: admin.email })).json()).toEqual({ valid: false });
    expect((await validate({ id: owner.id, email: owner.email }, {})).json()).toEqual({ valid: false });
    expect((await validate({ id: owner.id, email: owner.email }, bearer('made-up-token'))).json()).toEqual({
      valid: false,
    });
    const missing = await validate({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.fields).toEqual({ id: 'Field is required.', email: 'Field is required.' });
    expect((await validate({ id: 7, email: owner.email })).json().details.fields).toEqual({
      id: 'Invalid value.',
    });
  });

  it('logout revokes the token on the server', async () => {
    const token = await t.login('owner@alpha.test', PASSWORD);
    const me = () => t.app.inject({ method: 'GET', url: '/api/organization', headers: bearer(token) });
    expect((await me()).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect(out.json()).toEqual({ success: true });
    const after = await me();
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('unauthorized');
  });

  it('expires after 7 days without use, and slides while in use', async () => {
    const token = await sessionFor(t.db, t.world.users.admin.id);
    const me = () => t.app.inject({ method: 'GET', url: '/api/organization', headers: bearer(token) });
    const userId = t.world.users.admin.id;
    // Used two minutes ago, would expire in one hour: a request pushes expiry to 7 days from now.
    await t.db.execute(sql`update sessions set last_seen_at = now() - interval '2 minutes',
      expires_at = now() + interval '1 hour' where user_id = ${userId}`);
    expect((await me()).statusCode).toBe(200);
    const [slid] = await rows<{ days: number }>(
      t.db,
      sql`select extract(epoch from max(expires_at) - now()) / 86400 as days from sessions where user_id = ${userId}`,
    );
    expect(Number(slid?.days)).toBeGreaterThan(6.9);
    await t.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${userId}`,
    );
    expect((await me()).statusCode).toBe(401);
  });

  it('rejects a malformed authorization header', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/organization',
      headers: { authorization: 'Basic abc' },
    });
    expect(response.statusCode).toBe(401);
  });
});
