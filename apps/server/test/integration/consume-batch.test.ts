import { INTEGRATION_MSG, MAX_CONSUME_BATCH_ITEMS } from '@allot/domain/integration';
import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app';
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
 * POST /api/integration/consume/batch (CONTRACT §9, issue 31): each item applied or refused on its own, as the
 * single call would, in order and in one transaction; a refusal takes nothing and stops nothing; one
 * Idempotency-Key for the batch; a body that is not a valid batch is 400 as a whole. The behaviour lives here,
 * not in the implementation: a set-based `consumeBatch` must pass the same tests.
 */
let t: TestApp;
let alphaKey: { id: string; key: string };

beforeAll(async () => {
  t = await createTestApp();
  alphaKey = await insertIntegrationKey(t.db, t.world.orgs.alpha);
});
afterAll(() => t.close());

let keys = 0;
const newKey = () => `batch-${++keys}`;

type Item = {
  email: string;
  credits: number;
  reference: string;
  description?: string;
  licenseType?: string;
  organizationId?: string;
};

const batch = (items: unknown, idempotencyKey: string | null = newKey(), key = alphaKey.key) =>
  t.app.inject({
    method: 'POST',
    url: '/api/integration/consume/batch',
    headers: { ...bearer(key), ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }) },
    payload: { items } as object,
  });

let schools = 0;
const school = (parent = t.world.orgs.alpha, name = `Batch School ${++schools}`) =>
  createSchool(t.db, name, parent);
let people = 0;
const person = (options: { verified?: boolean } = {}) =>
  createPerson(t.db, `teacher${++people}@batch.test`, options);

/** Each school's one licence of the classroom product, given on its first teacher. */
const licences = new Map<string, string>();
const licenceOf = async (org: string) => {
  const id = licences.get(org) ?? (await licence(t.db, org));
  licences.set(org, id);
  return id;
};

/** A member with a seat in `org`, with `own` credits of their own. */
async function teacherIn(org: string, own: number) {
  const tia = await person();
  await join(t.db, tia.id, org, await licenceOf(org));
  if (own > 0) await mint(t.db, { userId: tia.id }, own);
  return tia;
}

async function schoolWith(shared: number) {
  const org = await school();
  if (shared > 0) await mint(t.db, { sharedOf: org }, shared);
  return org;
}

const lastSeq = async () => (await journalSince(t.db, 0)).at(-1)?.seq ?? 0;

const refused = (reference: string, error: string, message: string, details?: Record<string, unknown>) => ({
  reference,
  status: 'refused',
  consumed: 0,
  fromOwn: 0,
  fromShared: 0,
  balances: null,
  error,
  message,
  ...(details ? { details } : {}),
});

describe('a mixed batch', () => {
  it('applies or refuses each item on its own, in order, each seeing what the items before it left', async () => {
    const org = await schoolWith(40);
    const ana = await teacherIn(org, 5);
    const ben = await teacherIn(org, 0);
    const limited = await school();
    const dan = await teacherIn(limited, 100);
    await t.db.execute(sql`update organizations set daily_consumption_limit = 10 where id = ${limited}`);
    const since = await lastSeq();

    const items: Item[] = [
      { email: ana.email, credits: 3, reference: 'b-1', description: 'Essay feedback' },
      { email: ana.email, credits: 10, reference: 'b-2' },
      { email: ben.email, credits: 50, reference: 'b-3' },
      { email: ben.email, credits: 30, reference: 'b-4' },
      { email: 'nobody@nowhere.test', credits: 1, reference: 'b-5' },
      { email: dan.email, credits: 8, reference: 'b-6' },
      { email: dan.email, credits: 5, reference: 'b-7' },
      { email: dan.email, credits: 2, reference: 'b-8' },
    ];
    const response = await batch(items);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      results: [
        {
          reference: 'b-1',
          status: 'consumed',
          consumed: 3,
          fromOwn: 3,
          fromShared: 0,
          balances: { own: 2, shared: 40 },
        },
        // Ana's own balance is down to 2 after b-1: the rest from the pool.
        {
          reference: 'b-2',
          status: 'consumed',
          consumed: 10,
          fromOwn: 2,
          fromShared: 8,
          balances: { own: 0, shared: 32 },
        },
        // Ben draws the same pool, after Ana.
        refused('b-3', 'insufficient_credits', INTEGRATION_MSG.insufficientCredits(32), { available: 32 }),
        {
          reference: 'b-4',
          status: 'consumed',
          consumed: 30,
          fromOwn: 0,
          fromShared: 30,
          balances: { own: 0, shared: 2 },
        },
        refused('b-5', 'not_found', APP_MSG.notFound),
        {
          reference: 'b-6',
          status: 'consumed',
          consumed: 8,
          fromOwn: 8,
          fromShared: 0,
          balances: { own: 92, shared: 0 },
        },
        refused('b-7', 'daily_limit', INTEGRATION_MSG.dailyLimit(10, 2), { limit: 10, left: 2 }),
        // Exactly what is left of the day passes: the refused b-7 counted nothing.
        {
          reference: 'b-8',
          status: 'consumed',
          consumed: 2,
          fromOwn: 2,
          fromShared: 0,
          balances: { own: 90, shared: 0 },
        },
      ],
    });

    expect(await balances(t.db, ana.id, org)).toEqual({ own: 0, shared: 2 });
    expect(await balances(t.db, ben.id, org)).toEqual({ own: 0, shared: 2 });
    expect(await balances(t.db, dan.id, limited)).toEqual({ own: 90, shared: 0 });
    expect(await consumedToday(t.db, org)).toBe(43);
    expect(await consumedToday(t.db, limited)).toBe(10);
    // Each consumed item is its own `consumption` posting with its reference, in the order of the items;
    // a refused item wrote nothing.
    const journal = await journalSince(t.db, since);
    expect(journal.map((e) => ({ action: e.action, description: e.description }))).toEqual([
      { action: 'consumption', description: 'b-1: Essay feedback' },
      { action: 'consumption', description: 'b-2' },
      { action: 'consumption', description: 'b-4' },
      { action: 'consumption', description: 'b-6' },
      { action: 'consumption', description: 'b-8' },
    ]);
    const linesOf = (i: number) =>
      Object.fromEntries((journal[i]?.lines ?? []).map((l) => [l.key, Number(l.amount)]));
    expect(linesOf(1)).toEqual({
      [`user:${ana.id}@${org}`]: -2,
      [`shared:${org}`]: -8,
      [`consumed:${org}`]: 10,
    });
    expect(await ledgerViolations(t.db)).toEqual([]);
  });

  it('the credit log shows each consumed item, by its teacher, with its reference', async () => {
    const org = await schoolWith(20);
    const ana = await teacherIn(org, 0);
    const ben = await teacherIn(org, 0);
    const response = await batch([
      { email: ana.email, credits: 4, reference: 'quiz-1', description: 'Quiz generator' },
      { email: ben.email, credits: 6, reference: 'quiz-2' },
      { email: ben.email, credits: 11, reference: 'quiz-3' },
    ]);
    expect(response.json().results.map((r: { status: string }) => r.status)).toEqual([
      'consumed',
      'consumed',
      'refused',
    ]);
    const log = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${org}/credit-log`,
      headers: bearer(await sessionFor(t.db, t.world.users.owner.id)),
    });
    const consumptions = log
      .json()
      .data.filter((e: { action: string }) => e.action === 'consumption')
      .map((e: { credits: number; description: string; by: { id: string } }) => ({
        credits: e.credits,
        description: e.description,
        by: e.by.id,
      }));
    expect(consumptions).toEqual(
      expect.arrayContaining([
        { credits: -4, description: 'quiz-1: Quiz generator', by: ana.id },
        { credits: -6, description: 'quiz-2', by: ben.id },
      ]),
    );
    expect(consumptions).toHaveLength(2);
  });

  it(`takes ${MAX_CONSUME_BATCH_ITEMS} items, all consumed in order`, async () => {
    const org = await schoolWith(MAX_CONSUME_BATCH_ITEMS * 2);
    const tia = await teacherIn(org, 0);
    const items = Array.from({ length: MAX_CONSUME_BATCH_ITEMS }, (_, i) => ({
      email: tia.email,
      credits: 1,
      reference: `full-${i}`,
    }));
    const response = await batch(items);
    expect(response.statusCode).toBe(200);
    const results = response.json().results as { reference: string; balances: { shared: number } }[];
    expect(results.map((r) => r.reference)).toEqual(items.map((i) => i.reference));
    expect(results.map((r) => r.balances.shared)).toEqual(
      items.map((_, i) => MAX_CONSUME_BATCH_ITEMS * 2 - i - 1),
    );
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: MAX_CONSUME_BATCH_ITEMS });
  }, 60_000);
});

describe('refused items, as the single call refuses them', () => {
  it('only invited, or no seat of the licence type asked for: business_rule with the reasons', async () => {
    const org = await schoolWith(100);
    const lic = await licenceOf(org);
    const invited = await person();
    await invite(t.db, invited.id, org, lic);
    const seatless = await person();
    await join(t.db, seatless.id, org);
    const response = await batch([
      { email: invited.email, credits: 1, reference: 'inv' },
      { email: seatless.email, credits: 1, reference: 'seat', licenseType: 'chorus' },
      { email: seatless.email, credits: 1, reference: 'any' },
    ]);
    const [pending, noSeat, any] = response.json().results;
    expect(pending).toMatchObject({
      status: 'refused',
      balances: null,
      error: 'business_rule',
      details: { reasons: ['not_a_member'] },
    });
    expect(pending.message).toMatch(/invitation/);
    expect(noSeat).toMatchObject({
      status: 'refused',
      error: 'business_rule',
      details: { reasons: ['no_seat'] },
    });
    // Without a licence type the item does not ask about licences.
    expect(any).toMatchObject({ status: 'consumed', fromShared: 1, balances: { own: 0, shared: 99 } });
    expect((await balances(t.db, invited.id, org)).shared).toBe(99);
  });

  it('an email outside the key’s subtree, or unknown: not_found, nothing taken', async () => {
    const org = await schoolWith(0);
    const tia = await teacherIn(org, 10);
    const schoolAKey = (await insertIntegrationKey(t.db, t.world.orgs.schoolA)).key;
    const since = await lastSeq();
    const response = await batch(
      [
        { email: tia.email, credits: 1, reference: 'elsewhere' },
        { email: t.world.users.betaOwner.email, credits: 1, reference: 'other-tenant' },
        { email: 'nobody@nowhere.test', credits: 1, reference: 'nobody' },
      ],
      newKey(),
      schoolAKey,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toEqual([
      refused('elsewhere', 'not_found', APP_MSG.notFound),
      refused('other-tenant', 'not_found', APP_MSG.notFound),
      refused('nobody', 'not_found', APP_MSG.notFound),
    ]);
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 10, shared: 0 });
    expect(await journalSince(t.db, since)).toEqual([]);
  });

  it('a teacher in several organizations without organizationId: invalid_input naming them; with it, consumed', async () => {
    const one = await school(t.world.orgs.alpha, 'Maple Batch School');
    const two = await school(t.world.orgs.alpha, 'Birch Batch School');
    const tia = await person();
    await join(t.db, tia.id, one);
    await join(t.db, tia.id, two);
    await mint(t.db, { sharedOf: two }, 20);
    const response = await batch([
      { email: tia.email, credits: 5, reference: 'which' },
      { email: tia.email, credits: 5, reference: 'named', organizationId: two },
      { email: tia.email, credits: 5, reference: 'not-hers', organizationId: t.world.orgs.schoolA },
    ]);
    expect(response.json().results).toEqual([
      refused('which', 'invalid_input', INTEGRATION_MSG.ambiguous, {
        fields: { organizationId: INTEGRATION_MSG.ambiguous },
        organizations: [
          { id: two, name: 'Birch Batch School' },
          { id: one, name: 'Maple Batch School' },
        ],
      }),
      {
        reference: 'named',
        status: 'consumed',
        consumed: 5,
        fromOwn: 0,
        fromShared: 5,
        balances: { own: 0, shared: 15 },
      },
      refused('not-hers', 'not_found', APP_MSG.notFound),
    ]);
  });

  it('a batch of refusals only answers 200 and writes nothing', async () => {
    const org = await schoolWith(2);
    const tia = await teacherIn(org, 0);
    const since = await lastSeq();
    const response = await batch([
      { email: tia.email, credits: 3, reference: 'x' },
      { email: tia.email, credits: 5, reference: 'y' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toEqual([
      refused('x', 'insufficient_credits', INTEGRATION_MSG.insufficientCredits(2), { available: 2 }),
      refused('y', 'insufficient_credits', INTEGRATION_MSG.insufficientCredits(2), { available: 2 }),
    ]);
    expect(await journalSince(t.db, since)).toEqual([]);
    expect(await consumedToday(t.db, org)).toBe(0);
  });
});

describe('idempotency of the whole batch', () => {
  it('a repeat answers the first answer and changes nothing; the same key with another body is 409', async () => {
    const org = await schoolWith(10);
    const tia = await teacherIn(org, 0);
    const key = newKey();
    const items = [
      { email: tia.email, credits: 4, reference: 'once' },
      { email: tia.email, credits: 40, reference: 'too-much' },
    ];
    const first = await batch(items, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const since = await lastSeq();
    // Credits arrive meanwhile: the repeat still answers the first answer, refusal included.
    await mint(t.db, { sharedOf: org }, 100);
    const again = await batch(items, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await journalSince(t.db, since)).map((e) => e.action)).toEqual(['system_allocation']);
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 106 });
    expect(await consumedToday(t.db, org)).toBe(4);

    const other = await batch([{ email: tia.email, credits: 4, reference: 'another' }], key);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('idempotency_key_reused');
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 106 });
  });

  it('the Idempotency-Key header is required: 400 naming it, nothing taken', async () => {
    const org = await schoolWith(10);
    const tia = await teacherIn(org, 0);
    const items = [{ email: tia.email, credits: 1, reference: 'r' }];
    const missing = await batch(items, null);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      error: 'invalid_input',
      message: expect.stringMatching(/Idempotency-Key/),
    });
    const bad = await batch(items, 'x'.repeat(256));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Idempotency-Key/);
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 10 });
  });

  it('the single call and the batch with the same Idempotency-Key are two requests: 409', async () => {
    const org = await schoolWith(10);
    const tia = await teacherIn(org, 0);
    const key = newKey();
    const item = { email: tia.email, credits: 1, reference: 'r' };
    expect((await batch([item], key)).statusCode).toBe(200);
    const single = await t.app.inject({
      method: 'POST',
      url: '/api/integration/consume',
      headers: { ...bearer(alphaKey.key), 'idempotency-key': key },
      payload: item,
    });
    expect(single.statusCode).toBe(409);
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 9 });
  });
});

describe('a body that is not a valid batch: 400 as a whole, nothing taken', () => {
  const cases: [string, (email: string) => unknown][] = [
    ['no items', () => []],
    [
      `${MAX_CONSUME_BATCH_ITEMS + 1} items`,
      (email) =>
        Array.from({ length: MAX_CONSUME_BATCH_ITEMS + 1 }, (_, i) => ({
          email,
          credits: 1,
          reference: `r${i}`,
        })),
    ],
    [
      'one malformed item among good ones',
      (email) => [
        { email, credits: 1, reference: 'good' },
        { email, credits: 0, reference: 'zero' },
        { email, credits: 1, reference: 'good-too' },
      ],
    ],
    ['an item without a reference', (email) => [{ email, credits: 1 }]],
    ['an item that is not an object', (email) => [{ email, credits: 1, reference: 'good' }, 'text']],
    ['items that are not a list', (email) => ({ email, credits: 1, reference: 'r' })],
  ];
  for (const [name, itemsOf] of cases) {
    it(name, async () => {
      const org = await schoolWith(500);
      const tia = await teacherIn(org, 0);
      const since = await lastSeq();
      const key = newKey();
      const response = await batch(itemsOf(tia.email), key);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'invalid_input',
        details: { fields: expect.any(Object) },
      });
      expect(await journalSince(t.db, since)).toEqual([]);
      expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 500 });
      // The refused body did not take the Idempotency-Key: a valid batch may use it.
      const valid = await batch([{ email: tia.email, credits: 1, reference: 'after' }], key);
      expect(valid.statusCode).toBe(200);
      expect(valid.headers['idempotent-replayed']).toBeUndefined();
    });
  }

  it('names the bad field of an item by its index', async () => {
    const response = await batch([
      { email: 'a@batch.test', credits: 1, reference: 'good' },
      { email: 'not an email', credits: 1, reference: 'bad' },
    ]);
    expect(Object.keys(response.json().details.fields)).toEqual(['items.1.email']);
    const empty = await batch([]);
    expect(empty.json().details.fields).toEqual({ items: INTEGRATION_MSG.batchSize });
  });

  it('a body without items, or not JSON: 400 or 415', async () => {
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/integration/consume/batch',
      headers: { ...bearer(alphaKey.key), 'idempotency-key': newKey() },
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/integration/consume/batch',
      headers: { ...bearer(alphaKey.key), 'idempotency-key': newKey(), 'content-type': 'text/plain' },
      payload: 'items',
    });
    expect(text.statusCode).toBe(415);
  });
});

describe('who may call it', () => {
  it('a session token is 401, whoever holds it; no token is 401', async () => {
    const org = await schoolWith(10);
    const tia = await teacherIn(org, 0);
    const items = [{ email: tia.email, credits: 1, reference: 'r' }];
    for (const user of [t.world.users.owner, t.world.users.systemAdmin]) {
      const response = await batch(items, newKey(), await sessionFor(t.db, user.id));
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'unauthorized', message: INTEGRATION_MSG.keyOnly });
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/integration/consume/batch',
      headers: { 'idempotency-key': newKey() },
      payload: { items },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 10 });
  });
});

describe('concurrency', () => {
  it('4 batches of 10 × 3 credits at once from a pool of 60: exactly 20 consumed, nothing below zero', async () => {
    const org = await schoolWith(60);
    const teachers = [await teacherIn(org, 0), await teacherIn(org, 0)];
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, b) =>
        batch(
          Array.from({ length: 10 }, (_, i) => ({
            email: teachers[i % 2]?.email ?? '',
            credits: 3,
            reference: `c-${b}-${i}`,
          })),
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    const results = answers.flatMap((a) => a.json().results as { status: string; error?: string }[]);
    expect(results.filter((r) => r.status === 'consumed')).toHaveLength(20);
    expect(results.filter((r) => r.error === 'insufficient_credits')).toHaveLength(20);
    expect(await balances(t.db, teachers[0]?.id ?? '', org)).toEqual({ own: 0, shared: 0 });
    expect(await consumedToday(t.db, org)).toBe(60);
    expect(await ledgerViolations(t.db)).toEqual([]);
  }, 60_000);
});

describe('the rate limit per key', () => {
  it('counts a batch as one call, whatever its items; a refused batch takes nothing', async () => {
    const limitedApp: App = await buildApp({ db: t.db, integrationRateLimitPerMinute: 2 });
    try {
      const org = await schoolWith(100);
      const tia = await teacherIn(org, 0);
      const limited = await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Limited batch');
      const call = (n: number) =>
        limitedApp.inject({
          method: 'POST',
          url: '/api/integration/consume/batch',
          headers: { ...bearer(limited.key), 'idempotency-key': newKey() },
          payload: {
            items: Array.from({ length: n }, (_, i) => ({
              email: tia.email,
              credits: 1,
              reference: `rl-${i}`,
            })),
          },
        });
      // Six items in two calls under a limit of 2 a minute.
      expect((await call(3)).statusCode).toBe(200);
      expect((await call(3)).statusCode).toBe(200);
      const refusedCall = await call(3);
      expect(refusedCall.statusCode).toBe(429);
      expect(refusedCall.json()).toMatchObject({ error: 'rate_limited' });
      expect(Number(refusedCall.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(await balances(t.db, tia.id, org)).toEqual({ own: 0, shared: 94 });
    } finally {
      await limitedApp.close();
    }
  });
});

describe('the ledger after all of it', () => {
  it('every invariant holds', async () => {
    expect(await ledgerViolations(t.db)).toEqual([]);
  });
});
