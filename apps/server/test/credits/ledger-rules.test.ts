import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import { sqlState } from '../../src/db/transaction';
import {
  DeletedOrganizationPoolError,
  InsufficientCreditsError,
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../../src/features/credits/journal';
import { openTestDatabase } from '../support/test-database';
import { createWorld, type World } from '../support/world';

let database: Database;
let world: World;
let shared: string;
let protectedPool: string;
beforeAll(async () => {
  database = await openTestDatabase();
  world = await createWorld(database.db);
  shared = await organizationPoolAccountId(database.db, world.orgs.alpha, 'shared');
  protectedPool = await organizationPoolAccountId(database.db, world.orgs.alpha, 'protected');
});
afterAll(() => database.close());

async function refusal(work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
  } catch (error) {
    return sqlState(error);
  }
  return 'no error';
}

const balanceOf = async (id: string) =>
  Number(
    (
      await rows<{ balance: string }>(database.db, sql`select balance from credit_accounts where id = ${id}`)
    )[0]?.balance,
  );

describe('the ledger’s rules are held by PostgreSQL, not only by the code', () => {
  it('no statement writes a balance except through the journal', async () => {
    expect(
      await refusal(() => database.db.execute(sql`update credit_accounts set balance = balance + 1000`)),
    ).toBe('CR002');
    const [user] = await rows<{ id: string }>(
      database.db,
      sql`insert into users (email, name) values ('rich@alpha.test', 'Rich') returning id`,
    );
    expect(
      await refusal(() =>
        database.db.execute(
          sql`insert into credit_accounts (kind, user_id, balance) values ('user', ${user?.id}, 100)`,
        ),
      ),
    ).toBe('CR002');
    expect(await balanceOf(shared)).toBe(500);
  });

  it('the journal is append-only: no update, delete or truncate', async () => {
    expect(await refusal(() => database.db.execute(sql`update credit_entries set amount = amount * 2`))).toBe(
      'CR003',
    );
    expect(await refusal(() => database.db.execute(sql`delete from credit_entries`))).toBe('CR003');
    expect(
      await refusal(() => database.db.execute(sql`update credit_transactions set description = 'edited'`)),
    ).toBe('CR003');
    expect(await refusal(() => database.db.execute(sql`delete from credit_transactions`))).toBe('CR003');
    expect(await refusal(() => database.db.execute(sql`truncate credit_entries, credit_transactions`))).toBe(
      'CR003',
    );
  });

  it('a transaction whose lines do not sum to zero cannot commit', async () => {
    const state = await refusal(() =>
      database.db.transaction(async (tx) => {
        const [header] = await rows<{ id: string }>(
          tx,
          sql`insert into credit_transactions (action) values ('system_allocation') returning id`,
        );
        await tx.execute(sql`insert into credit_entries (transaction_id, account_id, amount)
          values (${header?.id}, ${shared}, 1000)`);
      }),
    );
    expect(state).toBe('CR004');
    expect(await balanceOf(shared)).toBe(500);
    const empty = await refusal(() =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into credit_transactions (action) values ('system_allocation')`);
      }),
    );
    expect(empty).toBe('CR004');
  });

  it('lines cannot be added later to a transaction another database transaction wrote', async () => {
    const [old] = await rows<{ id: string }>(
      database.db,
      sql`select id from credit_transactions order by seq limit 1`,
    );
    const state = await refusal(() =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into credit_entries (transaction_id, account_id, amount)
          values (${old?.id}, ${shared}, 50), (${old?.id}, ${protectedPool}, -50)`);
      }),
    );
    expect(state).toBe('CR005');
  });

  it('lines cannot name a journal transaction that does not exist', async () => {
    const state = await refusal(() =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into credit_entries (transaction_id, account_id, amount)
          values (gen_random_uuid(), ${shared}, 50), (gen_random_uuid(), ${protectedPool}, -50)`);
      }),
    );
    expect(state).toBe('CR005');
    expect(await balanceOf(shared)).toBe(500);
  });

  it('a balance never goes below zero: the posting names the account and what it holds', async () => {
    const error = await database.db
      .transaction((tx) =>
        postCreditTransaction(tx, {
          action: 'pool_transfer',
          actorId: null,
          lines: [
            { accountId: protectedPool, amount: -201 },
            { accountId: shared, amount: 201 },
          ],
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ accountId: protectedPool, balance: 200 });
    // The CHECK behind it: a balance below zero is refused even if a function forgot to look.
    const [constraint] = await rows<{ def: string }>(
      database.db,
      sql`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'credit_accounts_balance_check'`,
    );
    expect(constraint?.def).toContain('balance >= 0');
  });

  it('a posting that does not balance is refused before anything is written', async () => {
    const system = await systemAccountId(database.db);
    const state = await refusal(() =>
      database.db.execute(sql`select post_credit_transaction('system_allocation', null, '',
        array[${system}::uuid, ${shared}::uuid], array[-10, 11]::bigint[])`),
    );
    expect(state).toBe('CR004');
    expect(await balanceOf(shared)).toBe(500);
  });

  it('no credit goes into a pool of an organization deleted meanwhile', async () => {
    const betaShared = await organizationPoolAccountId(database.db, world.orgs.beta, 'shared');
    await database.db.execute(sql`update organizations set deleted_at = now() where id = ${world.orgs.beta}`);
    const error = await database.db
      .transaction((tx) =>
        postCreditTransaction(tx, {
          action: 'transfer_organizations',
          actorId: null,
          lines: [
            { accountId: shared, amount: -5 },
            { accountId: betaShared, amount: 5 },
          ],
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeletedOrganizationPoolError);
    expect(await balanceOf(betaShared)).toBe(0);
  });

  it('every balance equals the sum of its entries after all of the above', async () => {
    const mismatches = await rows(
      database.db,
      sql`select a.id from credit_accounts a
          left join (select account_id, sum(amount) as total from credit_entries group by account_id) e
            on e.account_id = a.id
          where a.balance <> coalesce(e.total, 0)`,
    );
    expect(mismatches).toEqual([]);
  });
});
