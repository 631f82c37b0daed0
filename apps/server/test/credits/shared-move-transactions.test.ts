import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import {
  planTransferOrganizations,
  transferOrganizations,
} from '../../src/features/credits/move-organization-credits';
import { MoveQueue } from '../../src/features/credits/move-queue';
import { AppError } from '../../src/http/app-error';
import { idempotentWrite } from '../../src/http/idempotency';
import { conservationViolations, ledgerViolations } from '../support/ledger';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { createAlphaCopy, sessionFor } from '../support/world';

/**
 * Credit moves that arrive together share database transactions (features/credits/move-queue.ts, decision
 * 006): each must still be its own journal transaction, audit entries, answer and Idempotency-Key, decided
 * in arrival order as if made one after the other, and a move refused for its own reasons must not stop the
 * others.
 */
const ON_POSTGRES = process.env.ALLOT_TEST_DB === 'postgres';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type MoveAnswer = { transactionId: string; organizations: { id: string; credits: { shared: number } }[] };

function transfer(token: string, from: string, to: string, amount: number, key?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/credit/transfer/organizations',
    headers: { ...bearer(token), ...(key ? { 'idempotency-key': key } : {}) },
    payload: {
      amount,
      sourceOrganizationId: from,
      fromOrganizationPoolType: 'shared',
      targetOrganizationId: to,
      toOrganizationPoolType: 'shared',
    },
  });
}

/** What an organization's shared pool holds, read from its account. */
async function sharedPoolOf(organizationId: string): Promise<number> {
  const [pool] = await rows<{ balance: string }>(
    t.db,
    sql`select balance::text from credit_accounts where organization_id = ${organizationId} and kind = 'shared'`,
  );
  return Number(pool?.balance);
}

async function invariantsHold() {
  expect(await ledgerViolations(t.db)).toEqual([]);
  expect(await conservationViolations(t.db)).toEqual([]);
}

describe('credit moves sent at once', () => {
  it('share transactions, yet each is its own journal transaction, audit entry and answer, in order', async () => {
    const { orgs, users } = await createAlphaCopy(t.db, t.world.users.systemAdmin.id);
    const owner = await sessionFor(t.db, users.owner.id);
    const targets = [orgs.schoolA, orgs.schoolB, orgs.annex];
    // Alpha holds 500 shared: 25 moves of 20 empty it, the last 5 find nothing left.
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => transfer(owner, orgs.alpha, targets[i % 3] as string, 20)),
    );
    const passed = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode !== 200);
    expect(passed).toHaveLength(25);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(422);
      expect(r.json()).toMatchObject({ error: 'insufficient_credits', details: { available: 0 } });
    }
    const ids = passed.map((r) => r.json<MoveAnswer>().transactionId);
    expect(new Set(ids).size).toBe(25);
    const journal = await rows<{ id: string; xact: string }>(
      t.db,
      sql`select id, xact::text from credit_transactions where id = any(${`{${ids.join(',')}}`}::uuid[])`,
    );
    expect(journal).toHaveLength(25);
    // Fewer database transactions than moves: they were shared. (PGlite answers each request before the next
    // reaches the queue: it works in the process's own turns, so nothing waits there; see the last test.)
    if (ON_POSTGRES) expect(new Set(journal.map((j) => j.xact)).size).toBeLessThan(25);

    // Alpha's audit entries, in the order written: each starts where the one before ended, 500 down to 0,
    // and each answer says what its own move left.
    const entries = await rows<{ id: string; before: { shared: number }; after: { shared: number } }>(
      t.db,
      sql`select credit_transaction_id::text as id, before, after from audit_events
          where organization_id = ${orgs.alpha} and action = 'credits_moved' order by seq`,
    );
    expect(entries).toHaveLength(25);
    expect(entries[0]?.before.shared).toBe(500);
    entries.forEach((entry, i) => {
      expect(entry.after.shared).toBe(entry.before.shared - 20);
      if (i > 0) expect(entry.before.shared).toBe(entries[i - 1]?.after.shared);
    });
    expect(entries.at(-1)?.after.shared).toBe(0);
    const leftBy = new Map(entries.map((e) => [e.id, e.after.shared]));
    for (const r of passed) {
      const answer = r.json<MoveAnswer>();
      const alpha = answer.organizations.find((o) => o.id === orgs.alpha);
      expect(alpha?.credits.shared).toBe(leftBy.get(answer.transactionId));
    }
    // Each school's entries chain the same way, ending at what it holds.
    for (const school of targets) {
      const schoolEntries = await rows<{ before: { shared: number }; after: { shared: number } }>(
        t.db,
        sql`select before, after from audit_events where organization_id = ${school} and action = 'credits_moved' order by seq`,
      );
      schoolEntries.forEach((entry, i) => {
        expect(entry.after.shared).toBe(entry.before.shared + 20);
        if (i > 0) expect(entry.before.shared).toBe(schoolEntries[i - 1]?.after.shared);
      });
      expect(await sharedPoolOf(school)).toBe(schoolEntries.at(-1)?.after.shared);
    }
    await invariantsHold();
  });

  it('a move refused for its caller, its session or its organization leaves the others to pass', async () => {
    const { orgs, users } = await createAlphaCopy(t.db, t.world.users.systemAdmin.id);
    const owner = await sessionFor(t.db, users.owner.id);
    const teacher = await sessionFor(t.db, users.teacher.id);
    const signedOut = await sessionFor(t.db, users.owner.id);
    await t.db.execute(sql`update sessions set revoked_at = now() where user_id = ${users.owner.id}
      and id = (select id from sessions where user_id = ${users.owner.id} order by created_at desc limit 1)`);
    const sends = [
      ...Array.from({ length: 8 }, () => transfer(owner, orgs.alpha, orgs.schoolA, 10)),
      transfer(teacher, orgs.alpha, orgs.schoolA, 10),
      transfer(signedOut, orgs.alpha, orgs.schoolA, 10),
      transfer(owner, orgs.alpha, t.world.orgs.beta, 10),
      ...Array.from({ length: 8 }, () => transfer(owner, orgs.alpha, orgs.schoolB, 10)),
    ];
    const responses = await Promise.all(sends);
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(16);
    // Each refused as it is when sent alone: a school's teacher does not see Alpha, a signed-out token is
    // 401, and Alpha's owner does not see Beta.
    const alone = [
      await transfer(teacher, orgs.alpha, orgs.schoolA, 10),
      await transfer(signedOut, orgs.alpha, orgs.schoolA, 10),
      await transfer(owner, orgs.alpha, t.world.orgs.beta, 10),
    ];
    expect(alone.map((r) => r.statusCode)).toEqual([404, 401, 404]);
    expect(responses.slice(8, 11).map((r) => [r.statusCode, r.json()])).toEqual(
      alone.map((r) => [r.statusCode, r.json()]),
    );
    expect(await sharedPoolOf(orgs.alpha)).toBe(500 - 160);
    await invariantsHold();
  });

  it('one Idempotency-Key sent several times at once is applied once, and every repeat answers the first', async () => {
    const { orgs, users } = await createAlphaCopy(t.db, t.world.users.systemAdmin.id);
    const owner = await sessionFor(t.db, users.owner.id);
    const sends = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0
        ? transfer(owner, orgs.alpha, orgs.schoolA, 5, 'same-move')
        : transfer(owner, orgs.alpha, orgs.schoolB, 5, `move-${i}`),
    );
    // A refusal is kept under its key too: 600 from a pool of 500.
    sends.push(transfer(owner, orgs.alpha, orgs.schoolB, 600, 'too-much'));
    sends.push(transfer(owner, orgs.alpha, orgs.schoolB, 600, 'too-much'));
    // The same person's key from two sessions at once: one move, whichever way they meet.
    const secondSession = await sessionFor(t.db, users.owner.id);
    sends.push(transfer(owner, orgs.alpha, orgs.annex, 5, 'two-sessions'));
    sends.push(transfer(secondSession, orgs.alpha, orgs.annex, 5, 'two-sessions'));
    const responses = await Promise.all(sends);
    const twoSessions = responses.slice(14);
    expect(twoSessions.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(new Set(twoSessions.map((r) => r.json<MoveAnswer>().transactionId)).size).toBe(1);
    expect(twoSessions.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
    const same = responses.filter((_, i) => i < 12 && i % 3 === 0);
    expect(same.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(same.map((r) => r.json<MoveAnswer>().transactionId)).size).toBe(1);
    expect(same.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
    const others = responses.filter((_, i) => i < 12 && i % 3 !== 0);
    expect(others.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const tooMuch = responses.slice(12, 14);
    expect(tooMuch.map((r) => r.statusCode)).toEqual([422, 422]);
    expect(tooMuch.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
    // The repeated key once, the eight others, the two sessions' once: ten moves of 5.
    expect(await sharedPoolOf(orgs.alpha)).toBe(500 - 50);
    await invariantsHold();
  });

  it('moves that wait behind a running transaction are posted together, in the order they came', async () => {
    const { orgs, users } = await createAlphaCopy(t.db, t.world.users.systemAdmin.id);
    const owner = { ...users.owner, userId: users.owner.id, sessionId: '', isSystemAdmin: false };
    const queue = new MoveQueue(t.db, 1);
    const input = (amount: number) => ({
      amount,
      sourceOrganizationId: orgs.alpha,
      fromOrganizationPoolType: 'shared' as const,
      targetOrganizationId: orgs.schoolA,
      toOrganizationPoolType: 'shared' as const,
    });
    // The first runs alone at once; the eleven others wait for it and then share one transaction. Alpha's 500
    // shared: 50 for the first, then 100, 100, 100, 100 pass, the 100 after finds 50, the tens take the 50 and
    // the last finds nothing.
    const amounts = [50, 100, 100, 100, 100, 100, 10, 10, 10, 10, 10, 10];
    const answers = await Promise.allSettled(
      amounts.map((amount) =>
        queue.move({
          caller: 'owner',
          user: () => owner,
          session: undefined,
          plan: (tx, user) => planTransferOrganizations(tx, user, input(amount)),
          idempotency: null,
          alone: () =>
            idempotentWrite(t.db, owner.userId, null, (tx) =>
              transferOrganizations(tx, owner, input(amount)),
            ),
        }),
      ),
    );
    const refused = answers[5];
    expect(refused?.status).toBe('rejected');
    const error = (refused as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).body()).toMatchObject({
      error: 'insufficient_credits',
      details: { available: 50 },
    });
    const ids = answers.flatMap((a) =>
      a.status === 'fulfilled' ? [(a.value.body as { transactionId: string }).transactionId] : [],
    );
    expect(ids).toHaveLength(10);
    const journal = await rows<{ xact: string }>(
      t.db,
      sql`select xact::text from credit_transactions where id = any(${`{${ids.join(',')}}`}::uuid[]) order by seq`,
    );
    expect(new Set(journal.map((j) => j.xact)).size).toBe(2);
    const left = answers.map((a) =>
      a.status === 'fulfilled'
        ? (a.value.body as MoveAnswer).organizations.find((o) => o.id === orgs.alpha)?.credits.shared
        : null,
    );
    expect(left).toEqual([450, 350, 250, 150, 50, null, 40, 30, 20, 10, 0, null]);
    // Alpha's audit says the same, entry by entry: what each move found and left, not the transaction's end.
    const entries = await rows<{ before: { shared: number }; after: { shared: number } }>(
      t.db,
      sql`select before, after from audit_events where organization_id = ${orgs.alpha}
          and action = 'credits_moved' order by seq`,
    );
    expect(entries.map((e) => [e.before.shared, e.after.shared])).toEqual([
      [500, 450],
      [450, 350],
      [350, 250],
      [250, 150],
      [150, 50],
      [50, 40],
      [40, 30],
      [30, 20],
      [20, 10],
      [10, 0],
    ]);
    expect(((answers[11] as PromiseRejectedResult).reason as AppError).body()).toMatchObject({
      details: { available: 0 },
    });
    await invariantsHold();
  });
});
