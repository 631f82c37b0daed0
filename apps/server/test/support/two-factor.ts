import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rows } from '../../src/db/rows';
import { bearer, type TestApp } from './test-app';
import { totpCode } from './totp';
import { PASSWORD, sessionFor } from './world';

/**
 * The two-factor calls of a test app (given as a getter: the app starts in `beforeAll`), each from a fresh
 * client address, so the per-IP limits stay out of the way.
 */
export function twoFactorCalls(testApp: () => TestApp) {
  let ip = 0;
  const call = (
    method: 'GET' | 'POST',
    url: string,
    options: { token?: string; body?: object; ip?: string } = {},
  ) =>
    testApp().app.inject({
      method,
      url,
      headers: options.token ? bearer(options.token) : {},
      remoteAddress: options.ip ?? `10.1.${Math.floor(++ip / 250)}.${ip % 250}`,
      ...(options.body ? { payload: options.body } : {}),
    });
  const login = (email: string, password = PASSWORD) =>
    call('POST', '/api/auth/login', { body: { email, password } });
  const status = (token: string) => call('GET', '/api/auth/mfa', { token });

  /** Sets two-factor up through the API, as the account itself: answers its secret and recovery codes. */
  async function enrol(token: string) {
    const setup = await call('POST', '/api/auth/mfa/setup', { token, body: { password: PASSWORD } });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const enabled = await call('POST', '/api/auth/mfa/enable', {
      token,
      body: { code: await totpCode(secret) },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    return { secret, recoveryCodes: enabled.json<{ recoveryCodes: string[] }>().recoveryCodes };
  }

  /** A sign-in answered with a challenge (`mfa_required`, or `mfa_setup_required`). */
  async function challengeOf(email: string, error = 'mfa_required'): Promise<string> {
    const response = await login(email);
    expect(response.statusCode, response.body).toBe(403);
    const body = response.json<{ error: string; details: { challenge: string } }>();
    expect(body.error).toBe(error);
    return body.details.challenge;
  }

  const verify = (challenge: string, code: string) =>
    call('POST', '/api/auth/mfa/verify', { body: { challenge, code } });

  /** A new account with the world's password, `role` of `organizationId`, and a session made directly. */
  async function newMember(name: string, organizationId: string, role = 'organization_admin') {
    const email = `${name}-${Math.random().toString(36).slice(2)}@members.test`;
    const [user] = await rows<{ id: string }>(
      testApp().db,
      sql`insert into users (email, name, password_hash, email_verified_at)
          select ${email}, ${name}, password_hash, now() from users where id = ${testApp().world.users.owner.id}
          returning id`,
    );
    if (!user) throw new Error('insert failed');
    await testApp().db.execute(sql`insert into memberships (user_id, organization_id, role)
      values (${user.id}, ${organizationId}, ${role})`);
    return { id: user.id, email, name, token: await sessionFor(testApp().db, user.id) };
  }

  return { call, login, status, enrol, challengeOf, verify, newMember };
}
