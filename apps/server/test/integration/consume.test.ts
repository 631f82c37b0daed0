import { INTEGRATION_MSG } from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, buildApp } from '../../src/app';
import { rows } from '../../src/db/rows';
import {
  balances,
  consumedToday,
  createPerson,
  createSchool,
  insertIntegrationKey,
  invite,
  join,
  licence,
  mint,
} from '../support/integration';
import { journalSince, ledgerViolations } from '../support/ledger';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/**
 * POST /api/integration/consume (CONTRACT §9, issue 15): own balance first, then the shared pool, exactly;
 * refusals take nothing and write nothing; idempotency; the daily limit; the per-key rate limit; the credit
 * log and the ledger's invariants.
 */
let t: TestApp;
let alphaKey: { id: string; key: string };
let owner: string;

beforeAll(async () => {
  t = await createTestApp();
  alphaKey = await insertIntegrationKey(t.db, t.world.orgs.alpha);
  owner = await sessionFor(t.db, t.world.users.owner.id);
});
afterAll(() => t.close());

let keys = 0;
const newKey = () => `consume-${++keys}`;

type Body = {
  email: string;
  credits: number;
  reference: string;
  description?: string;
  licenseType?: string;
  organizationId?: string;
};

const consume = (body: Body, idempotencyKey: string | null = newKey(), key = alphaKey.key) =>
  t.app.inject({
    method: 'POST',
    url: '/api/integration/consume',
    headers: { ...bearer(key), ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }) },
    payload: body,
  });

let schools = 0;
const school = (parent = t.world.orgs.alpha, name = `Consume School ${++schools}`) =>
  createSchool(t.db, name, parent);
let people = 0;
const person = (options: { verified?: boolean } = {}) =>
  createPerson(t.db, `teacher${++people}@consume.test`, options);

/** A member with a seat in a new school: `own` of their own and `shared` in the school's pool. */
async function teacherWith(own: number, shared: number) {
  const org = await school();
  const tia = await person();
  await join(t.db, tia.id, org, await licence(t.db, org));
  if (own > 0) await mint(t.db, { userId: tia.id }, own);
  if (shared > 0) await mint(t.db, { sharedOf: org }, shared);
  return { org, tia };
}

const journalCount = async () =>
  Number((await rows<{ n: string }>(t.db, sql`select count(*)::text as n from credit_transactions`))[0]?.n);

/** What the organization's consumed account received: the sum of its entries (it keeps no balance). */
async function consumedAccount(organizationId: string) {
  const [row] = await rows<{ balance: string }>(
    t.db,
    sql`select coalesce(sum(e.amount), 0)::text as balance from credit_accounts a
        join credit_entries e on e.account_id = a.id
        where a.organization_id = ${organizationId} and a.kind = 'consumed'`,
  );
  return Number(row?.balance ?? 0);
}

describe('drawing the credits', () => {
  it('own balance first, then the shared pool, exactly; each answer has the balances after', async () => {
    const { org, tia } = await teacherWith(30, 100);
    const alphaBefore = await subtreeCredits(t.world.orgs.alpha);

    const first = await consume({ email: tia.email, credits: 20, reference: 'lesson-1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      consumed: 20,
      fromOwn: 20,
      fromShared: 0,
      balances: { own: 10, shared: 100 },
    });

    const second = await consume({ email: tia.email, credits: 50, reference: 'lesson-2' });
    expect(second.json()).toEqual({
      consumed: 50,
      fromOwn: 10,
      fromShared: 40,
      balances: { own: 0, shared: 60 },
    });

    const third = await consume({ email: tia.email, credits: 60, reference: 'lesson-3' });
    expect(third.json()).toEqual({
      consumed: 60,
      fromOwn: 0,
      fromShared: 60,
      balances: { own: 0, shared: 0 },
    });

    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 0 });
    expect(await consumedAccount(org)).toBe(130);
    expect(await consumedToday(t.db, org)).toBe(130);
    // The kept totals: the school's pool figure and the district's subtree figure went down by the pool's part.
    const pools = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${org}?credits=true`,
      headers: bearer(owner),
    });
    expect(pools.json().credits).toEqual({ shared: 0, protected: 0 });
    expect(await subtreeCredits(t.world.orgs.alpha)).toBe(alphaBefore - 100);
    expect(await ledgerViolations(t.db)).toEqual([]);
  });

  it('one balanced journal entry: the teacher −fromOwn, the pool −fromShared, the consumed account +credits', async () => {
    const { org, tia } = await teacherWith(5, 50);
    const [last] = (await journalSince(t.db, 0)).slice(-1);
    const response = await consume({
      email: tia.email,
      credits: 12,
      reference: 'r-1',
      description: 'Essay feedback',
    });
    expect(response.statusCode).toBe(200);
    const [entry, ...more] = await journalSince(t.db, last?.seq ?? 0);
    expect(more).toEqual([]);
    const lines = Object.fromEntries((entry?.lines ?? []).map((l) => [l.key, Number(l.amount)]));
    expect(lines).toEqual({ [`user:${tia.id}@${org}`]: -5, [`shared:${org}`]: -7, [`consumed:${org}`]: 12 });
    const [header] = await rows<{ action: string; actor_id: string | null; description: string }>(
      t.db,
      sql`select action, actor_id, description from credit_transactions where id = ${entry?.id}`,
    );
    // The teacher who consumed is the posting's actor (decision 014, "Seat use").
    expect(header).toEqual({ action: 'consumption', actor_id: tia.id, description: 'r-1: Essay feedback' });
  });

  it('a teacher without a credit account: own 0, everything from the shared pool', async () => {
    const { org, tia } = await teacherWith(0, 9);
    const response = await consume({ email: tia.email, credits: 9, reference: 'r' });
    expect(response.json()).toEqual({
      consumed: 9,
      fromOwn: 0,
      fromShared: 9,
      balances: { own: 0, shared: 0 },
    });
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 0 });
  });

  it('the credit log shows the consumption, signed negative, with the reference', async () => {
    const { org, tia } = await teacherWith(10, 10);
    await consume({ email: tia.email, credits: 15, reference: 'quiz-77', description: 'Quiz generator' });
    const log = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${org}/credit-log`,
      headers: bearer(owner),
    });
    expect(log.statusCode).toBe(200);
    const [newest] = log.json().data;
    expect(newest).toMatchObject({
      action: 'consumption',
      credits: -15,
      description: 'quiz-77: Quiz generator',
      // By the teacher who used the product.
      by: { id: tia.id, name: tia.email.split('@')[0], email: tia.email },
    });
  });
});

describe('refusals take nothing', () => {
  it('not enough in both: 422 insufficient_credits with what is available; balances, journal and daily count unchanged', async () => {
    const { org, tia } = await teacherWith(5, 10);
    const journal = await journalCount();
    const response = await consume({ email: tia.email, credits: 16, reference: 'too-much' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: 'insufficient_credits',
      message: INTEGRATION_MSG.insufficientCredits(15),
      details: { available: 15 },
    });
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 5, shared: 10 });
    expect(await journalCount()).toBe(journal);
    expect(await consumedToday(t.db, org)).toBe(0);
    // Exactly what is there passes.
    const exact = await consume({ email: tia.email, credits: 15, reference: 'all-of-it' });
    expect(exact.json()).toMatchObject({ fromOwn: 5, fromShared: 10, balances: { own: 0, shared: 0 } });
    const empty = await consume({ email: tia.email, credits: 1, reference: 'one-more' });
    expect(empty.json()).toMatchObject({ error: 'insufficient_credits', details: { available: 0 } });
  });

  it('only invited, or the account not set up: 422 with the reasons, nothing taken', async () => {
    const org = await school();
    const lic = await licence(t.db, org);
    await mint(t.db, { sharedOf: org }, 100);
    const invited = await person();
    await invite(t.db, invited.id, org, lic);
    const journal = await journalCount();
    const pending = await consume({ email: invited.email, credits: 1, reference: 'r' });
    expect(pending.statusCode).toBe(422);
    expect(pending.json()).toMatchObject({ error: 'business_rule', details: { reasons: ['not_a_member'] } });
    expect(pending.json().message).toMatch(/invitation/);

    const unverified = await person({ verified: false });
    await join(t.db, unverified.id, org, lic);
    const notSetUp = await consume({ email: unverified.email, credits: 1, reference: 'r' });
    // Read alike (CONTRACT §3): an account not set up is pending like an invitee.
    expect(notSetUp.json()).toMatchObject({ error: 'business_rule', details: { reasons: ['not_a_member'] } });
    expect(notSetUp.json().message).toBe(pending.json().message);
    expect(await journalCount()).toBe(journal);
    expect((await balances(t.db, invited.id, org)).shared).toBe(100);
  });

  it('with licenseType, a teacher without a seat of a live licence of it is refused with the reasons', async () => {
    const org = await school();
    await licence(t.db, org, 'chorus');
    const tia = await person();
    await join(t.db, tia.id, org);
    await mint(t.db, { userId: tia.id }, 50);
    const noSeat = await consume({ email: tia.email, credits: 1, reference: 'r', licenseType: 'chorus' });
    expect(noSeat.json()).toMatchObject({ error: 'business_rule', details: { reasons: ['no_seat'] } });
    const noLicence = await consume({
      email: tia.email,
      credits: 1,
      reference: 'r',
      licenseType: 'tle_teacher',
    });
    expect(noLicence.json()).toMatchObject({ details: { reasons: ['no_licence_of_type', 'no_seat'] } });
    // Without a licence type the call does not ask about licences.
    expect((await consume({ email: tia.email, credits: 1, reference: 'r' })).statusCode).toBe(200);

    const expired = await school();
    const ben = await person();
    await join(t.db, ben.id, expired, await licence(t.db, expired, 'chorus', true));
    await mint(t.db, { userId: ben.id }, 50);
    const late = await consume({ email: ben.email, credits: 1, reference: 'r', licenseType: 'chorus' });
    expect(late.json()).toMatchObject({ details: { reasons: ['licence_expired'] } });
    expect((await balances(t.db, ben.id, expired)).own).toBe(50);

    const { tia: seated } = await teacherWith(3, 0);
    const ok = await consume({ email: seated.email, credits: 3, reference: 'r', licenseType: 'chorus' });
    expect(ok.json()).toMatchObject({ fromOwn: 3 });
  });

  it('outside the key’s subtree, or unknown: 404', async () => {
    expect(
      (await consume({ email: t.world.users.betaOwner.email, credits: 1, reference: 'r' })).statusCode,
    ).toBe(404);
    expect((await consume({ email: 'nobody@nowhere.test', credits: 1, reference: 'r' })).statusCode).toBe(
      404,
    );
    const { tia } = await teacherWith(10, 0);
    const schoolAKey = (await insertIntegrationKey(t.db, t.world.orgs.schoolA)).key;
    expect(
      (await consume({ email: tia.email, credits: 1, reference: 'r' }, newKey(), schoolAKey)).statusCode,
    ).toBe(404);
  });
});

describe('a teacher in several organizations of the subtree', () => {
  it('without organizationId 400 naming them; with it, that organization’s pool; another id 404', async () => {
    const one = await school(t.world.orgs.alpha, 'Maple School');
    const two = await school(t.world.orgs.alpha, 'Birch School');
    const tia = await person();
    await join(t.db, tia.id, one);
    await join(t.db, tia.id, two);
    await mint(t.db, { sharedOf: one }, 10);
    await mint(t.db, { sharedOf: two }, 20);

    const ambiguous = await consume({ email: tia.email, credits: 5, reference: 'r' });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json()).toMatchObject({
      error: 'invalid_input',
      message: INTEGRATION_MSG.ambiguous,
      details: {
        fields: { organizationId: INTEGRATION_MSG.ambiguous },
        organizations: [
          { id: two, name: 'Birch School' },
          { id: one, name: 'Maple School' },
        ],
      },
    });
    const named = await consume({ email: tia.email, credits: 5, reference: 'r', organizationId: two });
    expect(named.json()).toEqual({
      consumed: 5,
      fromOwn: 0,
      fromShared: 5,
      balances: { own: 0, shared: 15 },
    });
    expect((await balances(t.db, tia.id, one)).shared).toBe(10);
    for (const organizationId of [t.world.orgs.schoolA, t.world.orgs.beta, 'nope']) {
      const response = await consume({ email: tia.email, credits: 1, reference: 'r', organizationId });
      expect(response.statusCode).toBe(404);
    }
    // A key that sees only one of them is not in doubt.
    const oneKey = (await insertIntegrationKey(t.db, one)).key;
    const fromOne = await consume({ email: tia.email, credits: 1, reference: 'r' }, newKey(), oneKey);
    expect(fromOne.json()).toMatchObject({ balances: { shared: 9 } });
    // A pending invitation elsewhere does not make a single membership ambiguous.
    const ben = await person();
    await join(t.db, ben.id, one);
    await invite(t.db, ben.id, two);
    expect((await consume({ email: ben.email, credits: 1, reference: 'r' })).json()).toMatchObject({
      balances: { shared: 8 },
    });
  });
});

describe('idempotency', () => {
  it('the Idempotency-Key header is required: 400 naming it', async () => {
    const { tia } = await teacherWith(10, 0);
    const response = await consume({ email: tia.email, credits: 1, reference: 'r' }, null);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Idempotency-Key/);
    const bad = await consume({ email: tia.email, credits: 1, reference: 'r' }, 'x'.repeat(256));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Idempotency-Key/);
    expect((await balances(t.db, tia.id, t.world.orgs.alpha)).own).toBe(10);
  });

  it('a repeat answers the first answer and changes nothing; the same key with another body is 409', async () => {
    const { org, tia } = await teacherWith(10, 10);
    const key = newKey();
    const body = { email: tia.email, credits: 4, reference: 'once' };
    const first = await consume(body, key);
    const journal = await journalCount();
    const again = await consume(body, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await journalCount()).toBe(journal);
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 6, shared: 10 });
    expect(await consumedToday(t.db, org)).toBe(4);

    const other = await consume({ ...body, credits: 5 }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('idempotency_key_reused');
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 6, shared: 10 });
  });

  it('a refusal is the key’s answer too, even after credits arrive', async () => {
    const { org, tia } = await teacherWith(1, 0);
    const key = newKey();
    const body = { email: tia.email, credits: 5, reference: 'refused' };
    const first = await consume(body, key);
    expect(first.statusCode).toBe(422);
    await mint(t.db, { sharedOf: org }, 100);
    const again = await consume(body, key);
    expect({ status: again.statusCode, body: again.json() }).toEqual({ status: 422, body: first.json() });
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 1, shared: 100 });
  });

  it('keys are per integration key: two keys may use the same Idempotency-Key', async () => {
    const { org, tia } = await teacherWith(10, 0);
    const otherKey = (await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Second')).key;
    const body = { email: tia.email, credits: 2, reference: 'shared-key' };
    expect((await consume(body, 'same-key')).statusCode).toBe(200);
    const second = await consume(body, 'same-key', otherKey);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 6, shared: 0 });
  });
});

describe('concurrency', () => {
  it('60 consumptions of 3 at once from 40 own and 60 shared: exactly 33 pass, nothing below zero', async () => {
    const { org, tia } = await teacherWith(40, 60);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => consume({ email: tia.email, credits: 3, reference: `c-${i}` })),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(33);
    expect(statuses.filter((s) => s === 422)).toHaveLength(27);
    const passed = answers.filter((a) => a.statusCode === 200).map((a) => a.json());
    expect(passed.reduce((sum, a) => sum + a.fromOwn, 0)).toBe(40);
    expect(passed.reduce((sum, a) => sum + a.fromShared, 0)).toBe(59);
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 1 });
    expect(await consumedAccount(org)).toBe(99);
    expect(await ledgerViolations(t.db)).toEqual([]);
  }, 60_000);

  it('each request sent twice at once with its key: applied once each', async () => {
    const { org, tia } = await teacherWith(20, 20);
    const sends = Array.from({ length: 20 }, (_, i) => ({
      key: newKey(),
      body: { email: tia.email, credits: 1, reference: `d-${i}` },
    }));
    const answers = await Promise.all([...sends, ...sends].map((s) => consume(s.body, s.key)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    for (let i = 0; i < sends.length; i++)
      expect(answers[i]?.json()).toEqual(answers[i + sends.length]?.json());
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 20 });
  }, 60_000);

  it('calls at once (sharing transactions on PostgreSQL): each its own journal entry, answer and key', async () => {
    const { org, tia } = await teacherWith(0, 100);
    const poor = await teacherWith(0, 1);
    const sends = Array.from({ length: 24 }, (_, i) => ({
      key: newKey(),
      body: { email: tia.email, credits: 2, reference: `s-${i}` },
    }));
    const reused = newKey();
    const answers = await Promise.all([
      ...sends.map((s) => consume(s.body, s.key)),
      consume({ email: poor.tia.email, credits: 5, reference: 'too-much' }),
      consume({ email: tia.email, credits: 1, reference: 'first-use' }, reused),
      consume({ email: tia.email, credits: 1, reference: 'another-body' }, reused),
    ]);
    const [refused, first, second] = answers.slice(sends.length);
    expect(answers.slice(0, sends.length).map((a) => a.statusCode)).toEqual(sends.map(() => 200));
    expect(refused?.statusCode).toBe(422);
    expect(refused?.json().error).toBe('insufficient_credits');
    // The same key with two bodies at once: one is applied, the other refused as a reuse.
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([200, 409]);
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 100 - 48 - 1 });
    expect(await balances(t.db, poor.tia.id, poor.org)).toEqual({ own: 0, shared: 1 });

    const entries = await rows<{ description: string; xact: string }>(
      t.db,
      sql`select t.description, t.xact::text from credit_transactions t
          where t.action = 'consumption' and t.actor_id = ${tia.id}`,
    );
    expect(entries.map((e) => e.description).sort()).toEqual(
      [
        ...sends.map((s) => s.body.reference),
        ...(first?.statusCode === 200 ? ['first-use'] : ['another-body']),
      ].sort(),
    );
    // On PostgreSQL calls waiting for a transaction share the next one (decision 016). PGlite runs each
    // transaction to its end before another request is read: there each call has its own.
    if (t.database.kind === 'postgres')
      expect(new Set(entries.map((e) => e.xact)).size).toBeLessThan(entries.length);
    // A repeat of each call answers its own first answer.
    const again = await consume(sends[3]?.body as Body, sends[3]?.key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(answers[3]?.json());
    expect(await ledgerViolations(t.db)).toEqual([]);
  }, 60_000);
});

describe('the daily limit', () => {
  it('refuses a consumption that would pass it, taking nothing; what is left still passes', async () => {
    const { org, tia } = await teacherWith(500, 0);
    await t.db.execute(sql`update organizations set daily_consumption_limit = 100 where id = ${org}`);
    expect((await consume({ email: tia.email, credits: 60, reference: 'a' })).statusCode).toBe(200);
    const journal = await journalCount();
    const over = await consume({ email: tia.email, credits: 50, reference: 'b' });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ error: 'daily_limit', message: INTEGRATION_MSG.dailyLimit(100, 40) });
    expect(await journalCount()).toBe(journal);
    expect(await consumedToday(t.db, org)).toBe(60);
    expect((await balances(t.db, tia.id, org)).own).toBe(440);
    expect((await consume({ email: tia.email, credits: 40, reference: 'c' })).statusCode).toBe(200);
    const full = await consume({ email: tia.email, credits: 1, reference: 'd' });
    expect(full.json()).toMatchObject({ error: 'daily_limit', message: INTEGRATION_MSG.dailyLimit(100, 0) });
    expect(await consumedToday(t.db, org)).toBe(100);
    expect((await balances(t.db, tia.id, org)).own).toBe(400);
  });

  it('holds under concurrency: 10 consumptions of 20 at once under a limit of 100, exactly 5 pass', async () => {
    const { org, tia } = await teacherWith(500, 0);
    await t.db.execute(sql`update organizations set daily_consumption_limit = 100 where id = ${org}`);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => consume({ email: tia.email, credits: 20, reference: `l-${i}` })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.json().error === 'daily_limit')).toHaveLength(5);
    expect(await consumedToday(t.db, org)).toBe(100);
    expect((await balances(t.db, tia.id, org)).own).toBe(400);
  }, 60_000);

  it('is the organization’s own: another organization without a limit is not held back', async () => {
    const { org, tia } = await teacherWith(500, 0);
    await t.db.execute(
      sql`update organizations set daily_consumption_limit = 10 where id = ${t.world.orgs.alpha}`,
    );
    try {
      expect((await consume({ email: tia.email, credits: 50, reference: 'x' })).statusCode).toBe(200);
      expect(await consumedToday(t.db, org)).toBe(50);
    } finally {
      await t.db.execute(
        sql`update organizations set daily_consumption_limit = null where id = ${t.world.orgs.alpha}`,
      );
    }
  });
});

describe('the rate limit per key', () => {
  it('above the limit 429 with Retry-After, counted across app instances on one database, per key', async () => {
    // Two server instances on the one database, as two processes would be, each with a limit of 3 a minute.
    const instances: App[] = [
      await buildApp({ db: t.db, integrationRateLimitPerMinute: 3 }),
      await buildApp({ db: t.db, integrationRateLimitPerMinute: 3 }),
    ];
    try {
      const { tia } = await teacherWith(100, 0);
      const limited = await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Limited');
      const other = await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Other');
      const call = (i: number, key = limited.key) =>
        i % 2 === 0
          ? (instances[i % 2] as App).inject({
              method: 'GET',
              url: '/api/integration/entitlement',
              query: { email: tia.email },
              headers: bearer(key),
            })
          : (instances[i % 2] as App).inject({
              method: 'POST',
              url: '/api/integration/consume',
              headers: { ...bearer(key), 'idempotency-key': newKey() },
              payload: { email: tia.email, credits: 1, reference: `rl-${i}` },
            });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await call(i)).statusCode);
      expect(statuses).toEqual([200, 200, 200]);
      for (const i of [3, 4]) {
        const refused = await call(i);
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toMatchObject({ error: 'rate_limited' });
        const retryAfter = Number(refused.headers['retry-after']);
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
      // Calls 1 and 3 were consumptions: the first passed, the refused one took nothing.
      expect((await balances(t.db, tia.id, t.world.orgs.alpha)).own).toBe(99);
      // Another key has its own count.
      expect((await call(0, other.key)).statusCode).toBe(200);
      // When the window has passed, the key may call again: in the database, and in the memory of the process
      // that was refused (it answers 429 by itself until the window ends).
      await t.db.execute(
        sql`update rate_limits set window_started_at = now() - interval '61 seconds' where key = ${`integration:${limited.id}`}`,
      );
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
      expect((await call(0)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
      for (const app of instances) await app.close();
    }
  });

  it('the limit comes from INTEGRATION_RATE_LIMIT_PER_MINUTE', async () => {
    const { loadConfig } = await import('../../src/config');
    expect(loadConfig({ INTEGRATION_RATE_LIMIT_PER_MINUTE: '120' }).integrationRateLimitPerMinute).toBe(120);
    expect(loadConfig({}).integrationRateLimitPerMinute).toBeUndefined();
    expect(() => loadConfig({ INTEGRATION_RATE_LIMIT_PER_MINUTE: '0' })).toThrow(
      /INTEGRATION_RATE_LIMIT_PER_MINUTE/,
    );
  });
});

describe('the ledger after all of it', () => {
  it('every invariant holds: sums zero, balances equal their entries, kept totals right', async () => {
    expect(await ledgerViolations(t.db)).toEqual([]);
  });
});

async function subtreeCredits(organizationId: string) {
  const [row] = await rows<{ v: string }>(
    t.db,
    sql`select subtree_pool_credits_of(${organizationId})::text as v`,
  );
  return Number(row?.v);
}
