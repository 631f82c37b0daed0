import { APP_MSG, MSG } from '@allot/domain/messages';
import { MFA_MSG, RECOVERY_CODE_PATTERN } from '@allot/domain/mfa';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { encryptPlainSecrets, openSecret, sealSecret } from '../../src/features/auth/mfa-secrets';
import { createTestApp, type TestApp } from '../support/test-app';
import { totpCode } from '../support/totp';
import { twoFactorCalls } from '../support/two-factor';
import { PASSWORD, sessionFor } from '../support/world';

/** Two-factor sign-in of one's own account (CONTRACT §3, decision 015): TOTP codes computed here with otplib. */

const KEY = Buffer.alloc(32, 7);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ signIn: { requireSystemAdmins: false, encryptionKey: KEY } });
});
afterAll(() => t.close());

const { call, login, status, enrol, challengeOf, verify, newMember } = twoFactorCalls(() => t);
/** A new admin of Alpha School A, signed in. */
const newAdmin = (name: string) => newMember(name, t.world.orgs.schoolA);

describe('turning two-factor on', () => {
  it('takes the password, answers a secret once, and is on after the first code with 10 recovery codes', async () => {
    const ada = await newAdmin('ada');
    const other = await sessionFor(t.db, ada.id);
    expect((await status(ada.token)).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      required: false,
    });

    const wrongPassword = await call('POST', '/api/auth/mfa/setup', {
      token: ada.token,
      body: { password: 'not-the-password' },
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toEqual({
      error: 'invalid_input',
      message: MFA_MSG.wrongPassword,
      details: { fields: { password: MFA_MSG.wrongPassword } },
    });
    const noPassword = await call('POST', '/api/auth/mfa/setup', { token: ada.token, body: {} });
    expect(noPassword.json().details).toEqual({ fields: { password: MSG.required } });

    const setup = await call('POST', '/api/auth/mfa/setup', {
      token: ada.token,
      body: { password: PASSWORD },
    });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json<{ secret: string; otpauthUrl: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Allot:${ada.email}`);
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Allot');

    // Stored sealed with the key, bound to the account; never the secret itself.
    const [stored] = await rows<{ secret: string; enabled_at: string | null }>(
      t.db,
      sql`select secret, enabled_at from user_mfa where user_id = ${ada.id}`,
    );
    expect(stored?.secret).toMatch(/^v1:/);
    expect(stored?.secret).not.toContain(secret);
    expect(stored?.enabled_at).toBeNull();
    expect((await status(ada.token)).json().enabled).toBe(false);

    const wrong = await call('POST', '/api/auth/mfa/enable', { token: ada.token, body: { code: '000000' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'invalid_code', message: MFA_MSG.wrongCode });
    const letters = await call('POST', '/api/auth/mfa/enable', {
      token: ada.token,
      body: { code: 'abcdef' },
    });
    expect(letters.json().details).toEqual({ fields: { code: MFA_MSG.totpFormat } });

    const enabled = await call('POST', '/api/auth/mfa/enable', {
      token: ada.token,
      body: { code: await totpCode(secret) },
    });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes, session } = enabled.json<{ recoveryCodes: string[]; session?: unknown }>();
    expect(session).toBeUndefined();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(RECOVERY_CODE_PATTERN);
    const hashes = await rows<{ code_hash: string }>(
      t.db,
      sql`select code_hash from mfa_recovery_codes where user_id = ${ada.id}`,
    );
    expect(hashes).toHaveLength(10);
    for (const { code_hash } of hashes) expect(recoveryCodes.join()).not.toContain(code_hash);

    expect((await status(ada.token)).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
      required: false,
    });
    // Turning it on ends every other session of the account; the caller's own stays.
    expect((await status(other)).statusCode).toBe(401);
    expect((await status(ada.token)).statusCode).toBe(200);

    const again = await call('POST', '/api/auth/mfa/setup', {
      token: ada.token,
      body: { password: PASSWORD },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'conflict', message: MFA_MSG.alreadyOn });
  });

  it('enable without a set-up secret is 422, and without a session or challenge 401', async () => {
    const bo = await newAdmin('bo');
    const response = await call('POST', '/api/auth/mfa/enable', {
      token: bo.token,
      body: { code: '123456' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: 'business_rule', message: MFA_MSG.noSetup });
    for (const url of ['/api/auth/mfa/setup', '/api/auth/mfa/enable']) {
      const anonymous = await call('POST', url, { body: { password: PASSWORD, code: '123456' } });
      expect(anonymous.statusCode, url).toBe(401);
      const madeUp = await call('POST', url, { body: { challenge: 'made-up', code: '123456' } });
      expect(madeUp.statusCode, url).toBe(401);
      expect(madeUp.json(), url).toEqual({ error: 'unauthorized', message: MFA_MSG.challengeExpired });
    }
  });
});

describe('signing in with two-factor on', () => {
  it('asks for a code after the password, and a right code signs in; no session before it', async () => {
    const cy = await newAdmin('cy');
    const { secret } = await enrol(cy.token);
    const sessionsBefore = await rows(t.db, sql`select 1 from sessions where user_id = ${cy.id}`);

    const wrongPassword = await login(cy.email, 'not-the-password');
    expect(wrongPassword.statusCode).toBe(401);
    const first = await login(cy.email);
    expect(first.statusCode).toBe(403);
    expect(first.json()).toEqual({
      error: 'mfa_required',
      message: MFA_MSG.codeNeeded,
      details: { challenge: expect.stringMatching(/^[\w-]{43}$/) },
    });
    expect(await rows(t.db, sql`select 1 from sessions where user_id = ${cy.id}`)).toHaveLength(
      sessionsBefore.length,
    );
    const { challenge } = first.json<{ details: { challenge: string } }>().details;
    const [stored] = await rows<{ token_hash: string }>(
      t.db,
      sql`select token_hash from mfa_challenges where user_id = ${cy.id}`,
    );
    expect(stored?.token_hash).not.toBe(challenge);

    const wrong = await verify(challenge, '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'invalid_code', message: MFA_MSG.wrongCode });

    // The code of the next step (an app a little ahead): the enabling code's step is used already.
    const signedIn = await verify(challenge, await totpCode(secret, 1));
    expect(signedIn.statusCode).toBe(200);
    const body = signedIn.json<{ secToken: string }>();
    expect(body).toEqual({
      secToken: expect.any(String),
      userId: cy.id,
      userEmail: cy.email,
      role: 'organization_admin',
    });
    expect((await status(body.secToken)).statusCode).toBe(200);

    // The challenge is used up.
    const reused = await verify(challenge, await totpCode(secret, 1));
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual({ error: 'unauthorized', message: MFA_MSG.challengeExpired });
  });

  it('takes each code once: the same code, or an older one, fails on a second sign-in', async () => {
    const di = await newAdmin('di');
    const { secret } = await enrol(di.token);
    const nextStep = Math.floor(Date.now() / 1000 / 30) + 1;
    const code = await totpCode(secret, 1);
    expect((await verify(await challengeOf(di.email), code)).statusCode).toBe(200);
    const replay = await verify(await challengeOf(di.email), code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_code');
    // The current step is before the one used: refused too (the app shows the next code in a moment).
    expect((await verify(await challengeOf(di.email), await totpCode(secret))).statusCode).toBe(400);
    const [row] = await rows<{ last_used_step: string }>(
      t.db,
      sql`select last_used_step from user_mfa where user_id = ${di.id}`,
    );
    // The step of the code that signed in is remembered (the next one, unless a step began meanwhile).
    expect([nextStep, nextStep + 1]).toContain(Number(row?.last_used_step));
  });

  it('refuses a challenge after 5 minutes, and one of another kind', async () => {
    const ed = await newAdmin('ed');
    const { secret } = await enrol(ed.token);
    const challenge = await challengeOf(ed.email);
    await t.db.execute(sql`update mfa_challenges set expires_at = now() - interval '1 second'
      where user_id = ${ed.id}`);
    const late = await verify(challenge, await totpCode(secret, 1));
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual({ error: 'unauthorized', message: MFA_MSG.challengeExpired });
    // A sign-in challenge is no set-up challenge.
    const fresh = await challengeOf(ed.email);
    const asSetup = await call('POST', '/api/auth/mfa/setup', { body: { challenge: fresh } });
    expect(asSetup.statusCode).toBe(401);
    const [row] = await rows<{ minutes: number }>(
      t.db,
      sql`select round(extract(epoch from max(expires_at) - now()) / 60)::int as minutes
          from mfa_challenges where user_id = ${ed.id}`,
    );
    expect(row?.minutes).toBe(5);
  });

  it('a recovery code signs in once; written in capitals without dashes it still works', async () => {
    const fay = await newAdmin('fay');
    const { recoveryCodes } = await enrol(fay.token);
    const [first, second] = recoveryCodes as [string, string];
    const used = await verify(await challengeOf(fay.email), first);
    expect(used.statusCode).toBe(200);
    const token = used.json<{ secToken: string }>().secToken;
    expect((await status(token)).json()).toEqual({ enabled: true, recoveryCodesLeft: 9, required: false });

    const again = await verify(await challengeOf(fay.email), first);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_code', message: MFA_MSG.wrongCode });

    const typed = second.replace(/-/g, '').toUpperCase();
    expect((await verify(await challengeOf(fay.email), typed)).statusCode).toBe(200);
    expect((await status(token)).json().recoveryCodesLeft).toBe(8);
  });

  it('counts wrong codes per account like other codes: the sixth try is 429, even with the right code', async () => {
    const gus = await newAdmin('gus');
    const { secret } = await enrol(gus.token);
    const challenge = await challengeOf(gus.email);
    for (let i = 0; i < 5; i++) {
      expect((await verify(challenge, '000000')).statusCode).toBe(400);
    }
    const limited = await verify(challenge, await totpCode(secret, 1));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'rate_limited', message: APP_MSG.tooManyCodeAttempts });
    // A new sign-in (the password is right) does not reset the count.
    expect((await verify(await challengeOf(gus.email), await totpCode(secret, 1))).statusCode).toBe(429);
  });

  it('a stolen session cannot walk the password through set-up: the sixth wrong password is 429', async () => {
    const hob = await newAdmin('hob');
    for (let i = 0; i < 5; i++) {
      const wrong = await call('POST', '/api/auth/mfa/setup', {
        token: hob.token,
        body: { password: `guess-${i}-guess` },
      });
      expect(wrong.statusCode).toBe(400);
    }
    const limited = await call('POST', '/api/auth/mfa/setup', {
      token: hob.token,
      body: { password: PASSWORD },
    });
    expect(limited.statusCode).toBe(429);
    expect(await rows(t.db, sql`select 1 from user_mfa where user_id = ${hob.id}`)).toEqual([]);
  });

  it('a teacher never reaches the code step', async () => {
    const teacher = t.world.users.teacher;
    await t.db.execute(
      sql`insert into user_mfa (user_id, secret, enabled_at) values (${teacher.id}, 'plain:AAAA', now())`,
    );
    const response = await login(teacher.email);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('no_panel_access');
    await t.db.execute(sql`delete from user_mfa where user_id = ${teacher.id}`);
  });
});

describe('turning two-factor off, and new recovery codes', () => {
  it('needs the password and a code; ends every other session; sign-in takes the password alone again', async () => {
    const hal = await newAdmin('hal');
    const { secret, recoveryCodes } = await enrol(hal.token);
    const other = await sessionFor(t.db, hal.id);

    const wrongCode = await call('POST', '/api/auth/mfa/disable', {
      token: hal.token,
      body: { password: PASSWORD, code: '000000' },
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().error).toBe('invalid_code');
    const wrongPassword = await call('POST', '/api/auth/mfa/disable', {
      token: hal.token,
      body: { password: 'not-the-password', code: await totpCode(secret, 1) },
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().details).toEqual({ fields: { password: MFA_MSG.wrongPassword } });
    expect((await status(other)).statusCode).toBe(200);

    const off = await call('POST', '/api/auth/mfa/disable', {
      token: hal.token,
      body: { password: PASSWORD, code: recoveryCodes[0] },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ success: true });
    expect((await status(other)).statusCode).toBe(401);
    expect((await status(hal.token)).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      required: false,
    });
    expect(await rows(t.db, sql`select 1 from mfa_recovery_codes where user_id = ${hal.id}`)).toEqual([]);
    expect((await login(hal.email)).statusCode).toBe(200);

    const notOn = await call('POST', '/api/auth/mfa/disable', {
      token: hal.token,
      body: { password: PASSWORD, code: '123456' },
    });
    expect(notOn.statusCode).toBe(422);
    expect(notOn.json()).toEqual({ error: 'business_rule', message: MFA_MSG.notOn });
  });

  it('new recovery codes replace the old ones', async () => {
    const ivy = await newAdmin('ivy');
    const { secret, recoveryCodes } = await enrol(ivy.token);
    const renewed = await call('POST', '/api/auth/mfa/recovery-codes', {
      token: ivy.token,
      body: { password: PASSWORD, code: await totpCode(secret, 1) },
    });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => recoveryCodes.includes(c))).toBe(false);
    expect((await verify(await challengeOf(ivy.email), recoveryCodes[1] as string)).statusCode).toBe(400);
    expect((await verify(await challengeOf(ivy.email), fresh[0] as string)).statusCode).toBe(200);
  });
});

describe('secrets at rest', () => {
  it('a secret written without a key is encrypted at the next start with one, and still works', async () => {
    const jo = await newAdmin('jo');
    const { secret } = await enrol(jo.token);
    // As a start without MFA_ENCRYPTION_KEY would have stored it.
    await t.db.execute(sql`update user_mfa set secret = ${`plain:${secret}`} where user_id = ${jo.id}`);
    expect(await encryptPlainSecrets(t.db, KEY)).toBe(1);
    const [row] = await rows<{ secret: string }>(
      t.db,
      sql`select secret from user_mfa where user_id = ${jo.id}`,
    );
    expect(row?.secret).toMatch(/^v1:/);
    expect((await verify(await challengeOf(jo.email), await totpCode(secret, 1))).statusCode).toBe(200);
  });

  it('a sealed secret opens only for its own account and with its key', () => {
    const sealed = sealSecret('JBSWY3DPEHPK3PXP', 'account-a', KEY);
    expect(openSecret(sealed, 'account-a', KEY)).toBe('JBSWY3DPEHPK3PXP');
    // Copied onto another account's row, or read with another key: an error (a 500, logged), never a code.
    expect(() => openSecret(sealed, 'account-b', KEY)).toThrow(/does not open/);
    expect(() => openSecret(sealed, 'account-a', Buffer.alloc(32, 8))).toThrow(/does not open/);
    expect(() => openSecret(sealed, 'account-a', undefined)).toThrow(/MFA_ENCRYPTION_KEY is not set/);
  });
});
