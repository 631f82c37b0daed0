import { CODE_MINUTES } from '@allot/domain/auth';
import { APP_MSG, MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { writeTransaction } from '../../src/db/transaction';
import { issueCode, LIVE_CODES_MAX } from '../../src/features/auth/one-time-codes';
import { queueInvitation } from '../../src/features/auth/verify-email';
import { codeIn, lastMailTo, linkIn, mailsTo } from '../support/outbox';
import { bearer, createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app';
import { PASSWORD, sessionFor } from '../support/world';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: object, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: ip });
const verify = (body: object) => post('/api/auth/verify', body);
/** Asks for a new code; the answer comes at once, the mail after it (lib/background.ts): both awaited. */
const resend = async (email: string) => {
  const response = await post('/api/auth/verify/resend', { email });
  await t.app.background.settle();
  return response;
};
const login = (email: string, password: string) =>
  post('/api/auth/login', { email, password }, `192.0.2.${Math.floor(Math.random() * 250)}`);
const forgetRateLimits = () => t.db.execute(sql`delete from rate_limits`);

/** An organization under Alpha District whose owner is a new person: the invitation goes out. */
async function inviteOwner(email: string, name = 'Ivy Invitee') {
  const token = await sessionFor(t.db, t.world.users.owner.id);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/organization/create',
    headers: bearer(token),
    payload: {
      name: `School of ${name}`,
      type: 'school',
      phoneNumber: '+1 555 000 3333',
      parentOrganizationId: t.world.orgs.alpha,
      adminName: name,
      adminEmail: email,
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string; name: string }>();
}

describe('invitations', () => {
  it('an organization created with a new admin email invites that person', async () => {
    const organization = await inviteOwner('ivy@school.test');
    const mails = await mailsTo(t.db, 'ivy@school.test');
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail).toMatchObject({ kind: 'invitation', status: 'pending' });
    expect(mail?.subject).toBe(`You are invited to Allot for ${organization.name}`);
    expect(mail?.text_body).toContain('Hello Ivy Invitee,');
    expect(codeIn(mail?.text_body ?? '')).toMatch(/^\d{6}$/);
    const link = linkIn(mail?.text_body ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(`${TEST_PUBLIC_URL}/register/verify`);
    expect(link.searchParams.get('email')).toBe('ivy@school.test');
    // CONTRACT §3: codes expire in 30 minutes, invitations' too.
    const [stored] = await rows<{ minutes: number }>(
      t.db,
      sql`select extract(epoch from c.expires_at - now()) / 60 as minutes from one_time_codes c
          join users u on u.id = c.user_id where u.email = 'ivy@school.test'`,
    );
    expect(Number(stored?.minutes)).toBeGreaterThan(CODE_MINUTES - 1);
    expect(Number(stored?.minutes)).toBeLessThanOrEqual(CODE_MINUTES);
    expect(mail?.text_body).toContain(`The code expires in ${CODE_MINUTES} minutes.`);
  });

  it('an existing account made owner is only invited to join, and the organization shows what was typed', async () => {
    const organization = await inviteOwner('admin@school-a.test', 'Typed Name');
    const mail = await lastMailTo(t.db, 'admin@school-a.test');
    expect(mail.kind).toBe('membership_invitation');
    expect(organization).toMatchObject({ adminName: 'Typed Name', adminEmail: 'admin@school-a.test' });
    const owners = await rows(
      t.db,
      sql`select 1 from memberships where organization_id = ${organization.id} and role = 'organization_owner'`,
    );
    expect(owners).toEqual([]);
  });

  it('is queued in the caller’s transaction: a rolled-back change sends nothing', async () => {
    await t.db
      .transaction(async (tx) => {
        await queueInvitation(tx, { userId: t.world.users.teacher.id }, { publicUrl: TEST_PUBLIC_URL });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await mailsTo(t.db, t.world.users.teacher.email)).toEqual([]);
  });
});

describe('POST /api/auth/verify', () => {
  it('asks for a password when the account has none, keeps the code, then sets it and verifies', async () => {
    const email = 'quinn@school.test';
    await inviteOwner(email, 'Quinn New');
    const code = codeIn((await lastMailTo(t.db, email)).text_body);
    expect((await login(email, 'anything-at-all')).statusCode).toBe(401);

    const noPassword = await verify({ email, code });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toEqual({
      error: 'password_required',
      message: APP_MSG.passwordRequired,
      details: { fields: { password: MSG.required } },
    });
    const short = await verify({ email, code, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ details: { fields: { password: APP_MSG.passwordTooShort } } });

    const done = await verify({ email: 'Quinn@School.test', code, password: 'quinns-new-password' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true });
    const signedIn = await login(email, 'quinns-new-password');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().role).toBe('organization_owner');

    const [user] = await rows<{ password_hash: string }>(
      t.db,
      sql`select password_hash from users where email = ${email}`,
    );
    expect(user?.password_hash).toMatch(/^\$argon2id\$/);

    // Single use.
    const reused = await verify({ email, code, password: 'another-password-1' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ error: 'invalid_code', message: MSG.verificationFailed });
  });

  it('refuses a wrong code, an unknown email and an expired code alike', async () => {
    const email = 'rita@school.test';
    await inviteOwner(email, 'Rita New');
    const code = codeIn((await lastMailTo(t.db, email)).text_body);
    const wrong = code === '000000' ? '111111' : '000000';
    for (const body of [
      { email, code: wrong, password: 'ritas-password-1' },
      { email: 'nobody@nowhere.test', code, password: 'ritas-password-1' },
    ]) {
      const response = await verify(body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_code', message: MSG.verificationFailed });
    }
    await t.db.execute(sql`update one_time_codes set expires_at = now() - interval '1 second'
      where user_id = (select id from users where email = ${email})`);
    expect((await verify({ email, code, password: 'ritas-password-1' })).json()).toEqual({
      error: 'invalid_code',
      message: MSG.verificationFailed,
    });
  });

  it('verifies an account that has a password without changing it', async () => {
    const email = t.world.users.unverified.email;
    expect((await login(email, PASSWORD)).json().error).toBe('not_verified');
    expect((await resend(email)).json()).toEqual({ success: true });
    const mail = await lastMailTo(t.db, email);
    expect(mail.kind).toBe('verification');
    expect(mail.text_body).not.toContain('choose the password');
    const code = codeIn(mail.text_body);
    const done = await verify({ email, code, password: 'an-attempt-to-change-it' });
    expect(done.json()).toEqual({ success: true });
    expect((await login(email, 'an-attempt-to-change-it')).statusCode).toBe(401);
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });

  it('limits guessing per email: 429 after 5 wrong codes', async () => {
    await forgetRateLimits();
    const email = 'sam@school.test';
    await inviteOwner(email, 'Sam New');
    const code = codeIn((await lastMailTo(t.db, email)).text_body);
    const wrong = code === '000000' ? '111111' : '000000';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await verify({ email, code: wrong })).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const locked = await verify({ email, code, password: 'sams-password-12' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: 'rate_limited', message: APP_MSG.tooManyCodeAttempts });
    await forgetRateLimits();
  });
});

describe('POST /api/auth/verify/resend', () => {
  it('answers alike whatever the email, and mails only an account that is not verified', async () => {
    for (const email of ['nobody@nowhere.test', 'owner@alpha.test']) {
      const response = await resend(email);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true });
      expect(await mailsTo(t.db, email)).toEqual([]);
    }
  });

  it('sends a new 30-minute code to an invitee; the old one works on until one of them is used', async () => {
    const email = 'tom@school.test';
    await inviteOwner(email, 'Tom New');
    const first = codeIn((await lastMailTo(t.db, email)).text_body);
    expect((await resend(email)).json()).toEqual({ success: true });
    const mail = await lastMailTo(t.db, email);
    expect(mail.kind).toBe('verification');
    expect(mail.text_body).toContain('choose the password');
    expect(mail.text_body).toContain(`${TEST_PUBLIC_URL}/register/verify?email=tom%40school.test`);
    const second = codeIn(mail.text_body);
    const stored = await rows<{ minutes: number }>(
      t.db,
      sql`select extract(epoch from c.expires_at - now()) / 60 as minutes from one_time_codes c
          join users u on u.id = c.user_id where u.email = ${email} order by c.created_at desc`,
    );
    expect(stored).toHaveLength(2);
    expect(Number(stored[0]?.minutes)).toBeLessThanOrEqual(CODE_MINUTES);
    // A wrong code counts against both; the first mail's code still verifies, and then neither is left.
    const wrong = ['000000', '111111', '222222'].find((c) => c !== first && c !== second) ?? '333333';
    expect((await verify({ email, code: wrong, password: 'toms-password-12' })).statusCode).toBe(400);
    expect((await verify({ email, code: first, password: 'toms-password-12' })).statusCode).toBe(200);
    const left = await rows(
      t.db,
      sql`select 1 from one_time_codes c join users u on u.id = c.user_id where u.email = ${email}`,
    );
    expect(left).toEqual([]);
    if (first !== second)
      expect((await verify({ email, code: second, password: 'toms-password-12' })).statusCode).toBe(400);
  });

  it(`keeps at most ${LIVE_CODES_MAX} live codes of an account, the newest`, async () => {
    await forgetRateLimits();
    const email = 'tess@school.test';
    await inviteOwner(email, 'Tess New');
    const user = await rows<{ id: string }>(t.db, sql`select id from users where email = ${email}`);
    const userId = user[0]?.id ?? '';
    await writeTransaction(t.db, async (tx) => {
      for (let i = 0; i < LIVE_CODES_MAX + 2; i++) {
        await issueCode(tx, { userId, purpose: 'email_verification', lifetimeMinutes: CODE_MINUTES });
      }
    });
    const live = await rows(t.db, sql`select 1 from one_time_codes where user_id = ${userId}`);
    expect(live).toHaveLength(LIVE_CODES_MAX);
  });
});
