import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { SIGN_IN_LIMITS, signInAddress } from '../../src/features/auth/sign-in-limits';
import { codeIn, lastMailTo, resetLinkParts } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

/**
 * CONTRACT §3: wrong passwords are limited per account and address together, so failures from other
 * addresses never refuse the right password from the person's own; a per-account ceiling needs failures from
 * many addresses (features/auth/sign-in-limits.ts, docs/SECURITY.md "Sign-in limits").
 */

const OWNERS_ADDRESS = '192.0.2.10';
const { pairFreeFailures, pairMaxFailures, attemptsPerAddress, windowSeconds } = SIGN_IN_LIMITS;

const signIn = (t: TestApp, email: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

/** Time passes for every sign-in counter (their times move back). */
const timePasses = (t: TestApp, seconds: number) =>
  t.db.execute(
    sql`update rate_limits set window_started_at = window_started_at - make_interval(secs => ${seconds})`,
  );

/** A stranger's address: 203.0.113.0/24 and 198.51.100.0/24, never the owner's. */
const stranger = (i: number) => (i < 250 ? `203.0.113.${i + 1}` : `198.51.100.${i - 249}`);

type Answer = Awaited<ReturnType<typeof signIn>>;

/**
 * A refusal that tells how long to wait: `429`, `Retry-After` the `seconds` of the rule less the time the test
 * took since the wait began (at most `slack`), the same wait in the body and the message.
 */
function expectWait(response: Answer, seconds: number, slack = 5): number {
  expect(response.statusCode).toBe(429);
  const wait = Number(response.headers['retry-after']);
  expect(wait).toBeLessThanOrEqual(seconds);
  expect(wait).toBeGreaterThan(seconds - slack);
  expect(response.json()).toEqual({
    error: 'rate_limited',
    message: APP_MSG.tooManyAttempts(wait),
    details: { retryAfter: wait },
  });
  return wait;
}

/** `count` wrong passwords for `email` from `ip`: their statuses. */
async function failFrom(t: TestApp, email: string, ip: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++)
    statuses.push((await signIn(t, email, `wrong-password-${i}`, ip)).statusCode);
  return statuses;
}

describe('sign-in limits (the real figures)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.execute(sql`delete from rate_limits`);
  });
  const email = 'admin@alpha.test';

  it("lets the owner in with the right password after strangers' failures from many addresses", async () => {
    // The measurement was 11 wrong passwords from 11 addresses; here 15 addresses give 5 each.
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push(...(await failFrom(t, email, stranger(i), pairFreeFailures)));
    expect(statuses).toEqual(Array(15 * pairFreeFailures).fill(401));
    const owner = await signIn(t, email, PASSWORD, OWNERS_ADDRESS);
    expect(owner.statusCode).toBe(200);
    expect(owner.json().userEmail).toBe(email);
  });

  it('makes one address wait after repeated failures on one account, and lets another address in', async () => {
    expect(await failFrom(t, email, stranger(0), pairFreeFailures)).toEqual(
      Array(pairFreeFailures).fill(401),
    );
    // Even the right password waits at that address: it is not tried.
    expectWait(await signIn(t, email, PASSWORD, stranger(0)), 30);
    expect((await signIn(t, email, PASSWORD, OWNERS_ADDRESS)).statusCode).toBe(200);
    // Another account from that address is not affected either.
    expect((await signIn(t, 'owner@alpha.test', PASSWORD, stranger(0))).statusCode).toBe(200);
  });

  it('doubles the wait after each further failure, then refuses for 15 minutes after the last', async () => {
    await failFrom(t, email, stranger(1), pairFreeFailures);
    for (const expected of [30, 60, 120, 240, 480]) {
      const wait = expectWait(await signIn(t, email, 'wrong-password', stranger(1)), expected);
      await timePasses(t, wait - 10);
      expect((await signIn(t, email, 'wrong-password', stranger(1))).statusCode).toBe(429);
      await timePasses(t, 10);
      expect((await signIn(t, email, 'wrong-password', stranger(1))).statusCode).toBe(401);
    }
    expect(pairMaxFailures).toBe(pairFreeFailures + 5);
    expectWait(await signIn(t, email, PASSWORD, stranger(1)), windowSeconds);
    await timePasses(t, windowSeconds - 60);
    expectWait(await signIn(t, email, PASSWORD, stranger(1)), 60);
    await timePasses(t, 60);
    expect((await signIn(t, email, PASSWORD, stranger(1))).statusCode).toBe(200);
  });

  it('counts the IPv6 addresses of one /64 as one address', async () => {
    for (let i = 1; i <= pairFreeFailures; i++)
      expect((await signIn(t, email, 'wrong-password', `2001:db8:5:6::${i}`)).statusCode).toBe(401);
    expectWait(await signIn(t, email, PASSWORD, '2001:db8:5:6:abcd:ef01:2345:6789'), 30);
    expect((await signIn(t, email, PASSWORD, '2001:db8:5:7::1')).statusCode).toBe(200);
  });

  it('counts an IPv4 address written as IPv6 as that IPv4 address', async () => {
    await failFrom(t, email, '198.51.100.77', pairFreeFailures);
    expectWait(await signIn(t, email, PASSWORD, '::ffff:198.51.100.77'), 30);
    expect(signInAddress('::FFFF:198.51.100.77')).toBe('198.51.100.77');
    expect(signInAddress('2001:DB8:0:1:2:3:4:5')).toBe('2001:db8:0:1::/64');
  });

  it(`refuses one address after ${attemptsPerAddress} attempts, whatever the accounts`, async () => {
    const ip = '203.0.113.200';
    const statuses: number[] = [];
    for (let i = 0; i < attemptsPerAddress; i++)
      statuses.push((await signIn(t, `someone-${i}@nowhere.test`, 'wrong-password', ip)).statusCode);
    expect(statuses).toEqual(Array(attemptsPerAddress).fill(401));
    // The window began with the first of the attempts.
    expectWait(await signIn(t, 'owner@alpha.test', PASSWORD, ip), windowSeconds, 60);
    expect((await signIn(t, 'owner@alpha.test', PASSWORD, OWNERS_ADDRESS)).statusCode).toBe(200);
  }, 60_000);

  it("clears the pair's failures when the right password comes", async () => {
    expect(await failFrom(t, email, stranger(2), pairFreeFailures - 1)).toEqual(
      Array(pairFreeFailures - 1).fill(401),
    );
    expect((await signIn(t, email, PASSWORD, stranger(2))).statusCode).toBe(200);
    expect(await failFrom(t, email, stranger(2), pairFreeFailures)).toEqual(
      Array(pairFreeFailures).fill(401),
    );
    expectWait(await signIn(t, email, PASSWORD, stranger(2)), 30);
  });

  it('keeps the counts in the database, so a second server process sees them', async () => {
    const second = await buildApp({ db: t.db });
    await failFrom(t, email, stranger(3), pairFreeFailures);
    try {
      const response = await second.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: PASSWORD },
        remoteAddress: stranger(3),
      });
      expectWait(response, 30);
    } finally {
      await second.close();
    }
  });
});

describe('the per-account ceiling (lowered to 30 for the test; 20,000 in use)', () => {
  const CEILING = 30;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ signInLimits: { accountCeiling: CEILING } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.execute(sql`delete from rate_limits`);
  });
  const email = 'owner@alpha.test';
  /** `count` failures spread over strangers' addresses, each within its free failures. */
  async function failFromMany(count: number, first = 0): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const ip = stranger(first + Math.floor(i / pairFreeFailures));
      statuses.push((await signIn(t, email, `wrong-password-${i}`, ip)).statusCode);
    }
    return statuses;
  }

  it('refuses every address, the owner’s too, once failures from many addresses reach it', async () => {
    expect(await failFromMany(CEILING)).toEqual(Array(CEILING).fill(401));
    // The window began with the first failure.
    expectWait(await signIn(t, email, PASSWORD, OWNERS_ADDRESS), windowSeconds, 60);
    expect((await signIn(t, email, 'wrong-password', stranger(100))).statusCode).toBe(429);
    // Another account is not affected.
    expect((await signIn(t, 'admin@alpha.test', PASSWORD, OWNERS_ADDRESS)).statusCode).toBe(200);
    await timePasses(t, windowSeconds);
    expect((await signIn(t, email, PASSWORD, OWNERS_ADDRESS)).statusCode).toBe(200);
  });

  it("does not forget the strangers' failures when the owner signs in", async () => {
    expect(await failFromMany(CEILING - 1)).toEqual(Array(CEILING - 1).fill(401));
    expect((await signIn(t, email, PASSWORD, OWNERS_ADDRESS)).statusCode).toBe(200);
    expect((await signIn(t, email, 'wrong-password', stranger(100))).statusCode).toBe(401);
    expect((await signIn(t, email, PASSWORD, OWNERS_ADDRESS)).statusCode).toBe(429);
  });

  it('opens again for the account when its password is reset', async () => {
    await failFromMany(CEILING);
    expect((await signIn(t, email, PASSWORD, OWNERS_ADDRESS)).statusCode).toBe(429);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email },
    });
    expect(forgot.statusCode).toBe(200);
    await t.app.background.settle();
    const mail = await lastMailTo(t.db, email);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: {
        ...resetLinkParts(mail.text_body),
        code: codeIn(mail.text_body),
        password: 'a-new-password-1',
      },
    });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(t, email, 'a-new-password-1', OWNERS_ADDRESS)).statusCode).toBe(200);
    // The strangers' pairs start again too: a new password, new counts.
    expect((await signIn(t, email, 'wrong-password', stranger(0))).statusCode).toBe(401);
  });
});

describe('behind a load balancer (TRUST_PROXY)', () => {
  /** Sign-ins through one proxy at 10.0.0.1 that appends the client's address to what the client sent. */
  const throughProxy = (t: TestApp, clientSaid: string, client: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@alpha.test', password: 'wrong-password' },
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': `${clientSaid}, ${client}` },
    });

  it('with a number of proxies, counts the address the last proxy saw, not one the client wrote', async () => {
    const t = await createTestApp({ trustProxy: 1 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < pairFreeFailures + 1; i++)
        statuses.push((await throughProxy(t, stranger(i), '192.0.2.77')).statusCode);
      expect(statuses).toEqual([...Array(pairFreeFailures).fill(401), 429]);
    } finally {
      await t.close();
    }
  });

  it('with `true`, believes the leftmost entry (a balancer that appends lets each attempt claim an address)', async () => {
    const t = await createTestApp({ trustProxy: true });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < pairFreeFailures + 1; i++)
        statuses.push((await throughProxy(t, stranger(i), '192.0.2.77')).statusCode);
      expect(statuses).toEqual(Array(pairFreeFailures + 1).fill(401));
    } finally {
      await t.close();
    }
  });
});
