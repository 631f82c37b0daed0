import { CODE_MINUTES } from '@allot/domain/auth';
import { APP_MSG, MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { CODE_ATTEMPTS_PER_ACCOUNT, CODE_MAX_FAILURES } from '../../src/features/auth/one-time-codes';
import { SIGN_IN_LIMITS } from '../../src/features/auth/sign-in-limits';
import { codeIn, lastMailTo, mailsTo, resetLinkParts } from '../support/outbox';
import { bearer, createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: object, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: ip });
/** Asks for a reset; the answer comes at once, the mail after it (lib/background.ts): both awaited. */
const forgot = async (email: string, ip?: string) => {
  const response = await post('/api/auth/password/forgot', { email }, ip);
  await t.app.background.settle();
  return response;
};
const check = (body: object, ip?: string) => post('/api/auth/password/check', body, ip);
const reset = (body: object, ip?: string) => post('/api/auth/password/reset', body, ip);
const login = (email: string, password: string, ip = `192.0.2.${Math.floor(Math.random() * 250)}`) =>
  post('/api/auth/login', { email, password }, ip);

/** Asks for a reset of that account and reads the code and the link out of the queued mail. */
async function requestReset(email: string) {
  expect((await forgot(email)).json()).toEqual({ success: true });
  const mail = await lastMailTo(t.db, email);
  return { mail, code: codeIn(mail.text_body), ...resetLinkParts(mail.text_body) };
}

const forgetRateLimits = () => t.db.execute(sql`delete from rate_limits`);

describe('POST /api/auth/password/forgot', () => {
  it('answers the same for an unknown email and queues no mail', async () => {
    const response = await forgot('nobody@nowhere.test');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect(await mailsTo(t.db, 'nobody@nowhere.test')).toEqual([]);
  });

  it('queues a mail with a 6-digit code and the link /password/token/{userId}/{token}', async () => {
    const { mail, code, userId, token } = await requestReset('ADMIN@alpha.test');
    expect(mail).toMatchObject({ kind: 'password_reset', to_address: 'admin@alpha.test', status: 'pending' });
    expect(code).toMatch(/^\d{6}$/);
    expect(userId).toBe(t.world.users.admin.id);
    // 256 random bits, base64url
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.text_body).toContain(`${TEST_PUBLIC_URL}/password/token/${userId}/${token}`);
    expect(mail.text_body).toContain(`expires in ${CODE_MINUTES} minutes`);
    expect(mail.html_body).toContain(code);
    expect(mail.html_body).toContain(`href="${TEST_PUBLIC_URL}/password/token/${userId}/${token}"`);
  });

  it('keeps only hashes of the code and the token', async () => {
    const { code, token, userId } = await requestReset('owner@alpha.test');
    const stored = await rows<{ code_hash: string; token_hash: string; minutes: number }>(
      t.db,
      sql`select code_hash, token_hash, extract(epoch from expires_at - now()) / 60 as minutes
          from one_time_codes where user_id = ${userId}`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.code_hash).not.toContain(code);
    expect(stored[0]?.token_hash).not.toBe(token);
    expect(Number(stored[0]?.minutes)).toBeGreaterThan(CODE_MINUTES - 1);
    expect(Number(stored[0]?.minutes)).toBeLessThanOrEqual(CODE_MINUTES);
  });

  it('validates the email with the spec text', async () => {
    const response = await forgot('not-an-email');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'invalid_input',
      details: { fields: { email: MSG.invalidEmail } },
    });
  });

  it('sends at most 3 mails per address in 15 minutes, answering alike', async () => {
    const email = 'admin@school-a.test';
    for (let i = 0; i < 5; i++) expect((await forgot(email)).json()).toEqual({ success: true });
    expect(await mailsTo(t.db, email)).toHaveLength(3);
    await forgetRateLimits();
  });
});

describe('POST /api/auth/password/check and /reset', () => {
  it('checks the code without using it, then resets the password and ends every session', async () => {
    const email = 'owner@beta.test';
    const oldToken = await t.login(email, PASSWORD);
    const { code, userId, token } = await requestReset(email);

    const checked = await check({ userId, token, code });
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toEqual({ success: true });
    // Checking does not use the code up.
    expect((await check({ userId, token, code })).statusCode).toBe(200);

    const done = await reset({ userId, token, code, password: 'a-brand-new-password' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true });

    const me = await t.app.inject({ method: 'GET', url: '/api/organization', headers: bearer(oldToken) });
    expect(me.statusCode).toBe(401);
    expect((await login(email, PASSWORD)).statusCode).toBe(401);
    expect((await login(email, 'a-brand-new-password')).statusCode).toBe(200);

    // Single use: the same code and link do nothing any more.
    const again = await reset({ userId, token, code, password: 'yet-another-password' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_code', message: MSG.resetFailed });
    expect((await check({ userId, token, code })).json()).toEqual({
      error: 'invalid_code',
      message: MSG.resetCodeNotVerified,
    });
  });

  it('refuses a wrong code, a wrong token and another user id with the spec texts', async () => {
    const { code, userId, token } = await requestReset('admin@alpha.test');
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (const body of [
      { userId, token, code: wrongCode },
      { userId, token: `${token.slice(0, -2)}AA`, code },
      { userId: t.world.users.owner.id, token, code },
      { userId: 'not-a-uuid', token, code },
    ]) {
      const response = await check(body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_code', message: MSG.resetCodeNotVerified });
      const refused = await reset({ ...body, password: 'a-brand-new-password' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: 'invalid_code', message: MSG.resetFailed });
    }
    await forgetRateLimits();
    // Still usable after the wrong tries.
    expect((await check({ userId, token, code })).statusCode).toBe(200);
  });

  it('refuses an expired code', async () => {
    const { code, userId, token } = await requestReset('admin@alpha.test');
    await t.db.execute(
      sql`update one_time_codes set expires_at = now() - interval '1 second' where user_id = ${userId}`,
    );
    expect((await check({ userId, token, code })).json()).toEqual({
      error: 'invalid_code',
      message: MSG.resetCodeNotVerified,
    });
    expect((await reset({ userId, token, code, password: 'a-brand-new-password' })).statusCode).toBe(400);
    expect((await login('admin@alpha.test', PASSWORD)).statusCode).toBe(200);
  });

  it('only the newest mail works', async () => {
    const first = await requestReset('admin@alpha.test');
    const second = await requestReset('admin@alpha.test');
    expect((await check(first)).statusCode).toBe(400);
    expect((await check(second)).statusCode).toBe(200);
  });

  it('validates the new password and the code shape', async () => {
    const { code, userId, token } = await requestReset('admin@alpha.test');
    const short = await reset({ userId, token, code, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      error: 'invalid_input',
      details: { fields: { password: APP_MSG.passwordTooShort } },
    });
    const letters = await check({ userId, token, code: 'abcdef' });
    expect(letters.statusCode).toBe(400);
    expect(letters.json()).toMatchObject({ details: { fields: { code: MSG.onlyNumbers } } });
    // The code survived both.
    expect((await check({ userId, token, code })).statusCode).toBe(200);
  });

  it('limits guessing: 429 after 5 wrong codes, even for the right one', async () => {
    await forgetRateLimits();
    const { code, userId, token } = await requestReset('admin@alpha.test');
    const wrong = code === '999999' ? '999998' : '999999';
    const statuses: number[] = [];
    for (let i = 0; i < CODE_ATTEMPTS_PER_ACCOUNT + 2; i++)
      statuses.push((await check({ userId, token, code: wrong }, `198.51.100.${i}`)).statusCode);
    expect(statuses.slice(0, CODE_ATTEMPTS_PER_ACCOUNT)).toEqual(Array(CODE_ATTEMPTS_PER_ACCOUNT).fill(400));
    expect(statuses.slice(CODE_ATTEMPTS_PER_ACCOUNT)).toEqual([429, 429]);
    const locked = await check({ userId, token, code });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: 'rate_limited', message: APP_MSG.tooManyCodeAttempts });
    await forgetRateLimits();
  });

  it(`kills a code after ${CODE_MAX_FAILURES} wrong guesses, whatever the windows`, async () => {
    const { code, userId, token } = await requestReset('admin@alpha.test');
    const wrong = code === '999999' ? '999998' : '999999';
    for (let i = 0; i < CODE_MAX_FAILURES; i++) {
      if (i % CODE_ATTEMPTS_PER_ACCOUNT === 0) await forgetRateLimits();
      expect((await check({ userId, token, code: wrong })).statusCode).toBe(400);
    }
    await forgetRateLimits();
    expect((await check({ userId, token, code })).statusCode).toBe(400);
  });

  it('opens a sign-in lockout and verifies an invited account', async () => {
    const email = 'new@alpha.test';
    const ip = '192.0.2.251';
    for (let i = 0; i < SIGN_IN_LIMITS.pairFreeFailures; i++) await login(email, 'wrong-password', ip);
    expect((await login(email, PASSWORD, ip)).statusCode).toBe(429);
    const { code, userId, token } = await requestReset(email);
    expect((await reset({ userId, token, code, password: 'verified-by-reset' })).statusCode).toBe(200);
    // The reset code went to the address, which proves it: the account is verified and may sign in, also
    // from the address that was kept waiting.
    expect((await login(email, 'verified-by-reset', ip)).statusCode).toBe(200);
  });
});
