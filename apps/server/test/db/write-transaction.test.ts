import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import { RetryTransaction, WRITE_ATTEMPTS, writeTransaction } from '../../src/db/transaction';
import { openTestDatabase } from '../support/test-database';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`create table lock_probe (id int primary key, n int not null default 0)`);
  await database.db.execute(sql`insert into lock_probe (id) values (1), (2)`);
});
afterAll(() => database.close());

const count = async (id: number) =>
  Number((await rows<{ n: number }>(database.db, sql`select n from lock_probe where id = ${id}`))[0]?.n);

/** Resolves once both sides have arrived. */
function barrier() {
  let arrived = 0;
  let release: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  return async () => {
    arrived += 1;
    if (arrived === 2) release();
    await all;
  };
}

describe('writeTransaction', () => {
  it.skipIf(process.env.ALLOT_TEST_DB !== 'postgres')(
    'runs the loser of a deadlock again, so both changes land',
    async () => {
      const bothHoldOne = barrier();
      let attempts = 0;
      const cross = (first: number, second: number) =>
        writeTransaction(database.db, async (tx) => {
          attempts += 1;
          await tx.execute(sql`update lock_probe set n = n + 1 where id = ${first}`);
          if (attempts <= 2) await bothHoldOne();
          await tx.execute(sql`update lock_probe set n = n + 1 where id = ${second}`);
        });
      await Promise.all([cross(1, 2), cross(2, 1)]);
      // PostgreSQL aborted one of the two; it ran a second time.
      expect(attempts).toBe(3);
      expect([await count(1), await count(2)]).toEqual([2, 2]);
    },
  );

  it('runs again a transaction that says it lost a race, and rolls back each failed attempt', async () => {
    const before = await count(1);
    let attempts = 0;
    const result = await writeTransaction(database.db, async (tx) => {
      attempts += 1;
      await tx.execute(sql`update lock_probe set n = n + 1 where id = 1`);
      if (attempts < 3) throw new RetryTransaction('test');
      return 'done';
    });
    expect(result).toBe('done');
    expect(attempts).toBe(3);
    expect(await count(1)).toBe(before + 1);
  });

  it('gives up after a bounded number of attempts and never retries other errors', async () => {
    let attempts = 0;
    await expect(
      writeTransaction(database.db, async () => {
        attempts += 1;
        throw new RetryTransaction('always');
      }),
    ).rejects.toBeInstanceOf(RetryTransaction);
    expect(attempts).toBe(WRITE_ATTEMPTS);

    attempts = 0;
    await expect(
      writeTransaction(database.db, async () => {
        attempts += 1;
        throw new Error('a bug');
      }),
    ).rejects.toThrow('a bug');
    expect(attempts).toBe(1);
  });

  it('runs its first read inside the transaction, in every attempt, and refuses with what the read refused', async () => {
    const seen: { first: string; work: string }[] = [];
    let attempts = 0;
    const first = {
      // Assigns the transaction its id: the work asks for it again and gets the same one inside it.
      statement: sql`select pg_current_xact_id()::text as xid`,
      settle: async (_tx: unknown, found: unknown[]) => {
        attempts += 1;
        seen.push({ first: (found[0] as { xid: string }).xid, work: '' });
      },
    };
    const before = await count(2);
    const result = await writeTransaction(
      database.db,
      async (tx) => {
        const [row] = await rows<{ xid: string }>(tx, sql`select pg_current_xact_id()::text as xid`);
        (seen.at(-1) as { work: string }).work = row?.xid ?? '';
        await tx.execute(sql`update lock_probe set n = n + 1 where id = 2`);
        if (attempts < 2) throw new RetryTransaction('test');
        return 'done';
      },
      first,
    );
    expect(result).toBe('done');
    expect(seen).toHaveLength(2);
    for (const { first, work } of seen) expect(work).toBe(first);
    expect(seen[0]?.first).not.toBe(seen[1]?.first);
    expect(await count(2)).toBe(before + 1);

    const refused = { ...first, settle: async () => Promise.reject(new Error('no session')) };
    await expect(
      writeTransaction(
        database.db,
        async (tx) => {
          await tx.execute(sql`update lock_probe set n = n + 100 where id = 2`);
          return 'written';
        },
        refused,
      ),
    ).rejects.toThrow('no session');
    expect(await count(2)).toBe(before + 1);
    // The connections answer one statement at a time again: many statements at once on the pool all answer.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => rows<{ n: number }>(database.db, sql`select ${i}::int as n`)),
    );
    expect(answers.map((r) => r[0]?.n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
