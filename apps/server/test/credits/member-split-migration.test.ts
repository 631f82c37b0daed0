import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { rows } from '../../src/db/rows';
import { rollUpCreditUsage } from '../../src/features/insights/usage-rollup';
import { insertOrganization } from '../../src/features/organizations/tree';
import { ledgerViolations } from '../support/ledger';

/*
 * Migration 0020 (credits per membership, decision 006): a database of before it, with one balance per person
 * that several tenants gave into, spent and moved, is split by the journal. Each person's credits go to the
 * membership of the organization that gave them; credits of an organization the person left go back to its
 * shared pool, of a deleted one to its nearest live ancestor's; minted ones to the person's main membership.
 * The ledger still balances, nothing is left on the closed balances, and the members' credits kept for each
 * subtree equal a recount after the roll-up.
 */
const MIGRATIONS_DIR = path.join(import.meta.dirname, '../../src/db/migrations');

/** Applies the migrations before `first` as migrate() does, and records them as applied. */
async function migrateBefore(database: Database, first: string) {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql') && f < first).sort();
  await database.db.transaction(async (tx) => {
    await tx.execute(
      sql`create table schema_migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    for (const file of files) {
      const script = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      for (const statement of script.split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`insert into schema_migrations (name) values (${file})`);
    }
  });
}

let database: Database;
beforeAll(async () => {
  database = await openPglite();
  await migrateBefore(database, '0020');
}, 120_000);
afterAll(() => database?.close());

describe.runIf(process.env.ALLOT_TEST_DB !== 'postgres')(
  'migration 0020: one balance per person split by the journal',
  () => {
    it('gives each organization back what it gave, and the ledger still balances', async () => {
      const db = database.db;
      const org = (name: string, parentId: string | null) =>
        insertOrganization(db, {
          name,
          type: parentId ? 'school' : 'district',
          phoneNumber: '+1 555 000 1111',
          parentId,
        });
      const alpha = await org('Alpha', null);
      const alphaSchool = await org('Alpha School', alpha);
      const beta = await org('Beta', null);
      const betaSchool = await org('Beta School', beta);
      const betaGone = await org('Beta Gone', beta);

      const person = async (name: string, memberOf: string[]) => {
        const [row] = await rows<{ id: string }>(
          db,
          sql`insert into users (email, name, email_verified_at) values (${`${name.toLowerCase()}@split.test`}, ${name}, now()) returning id`,
        );
        const id = (row as { id: string }).id;
        for (const organizationId of memberOf) {
          await db.execute(
            sql`insert into memberships (user_id, organization_id, role) values (${id}, ${organizationId}, 'user')`,
          );
        }
        const [account] = await rows<{ id: string }>(
          db,
          sql`insert into credit_accounts (kind, user_id) values ('user', ${id}) returning id`,
        );
        return { id, account: (account as { id: string }).id };
      };
      const account = async (organizationId: string, kind: string) => {
        await db.execute(
          sql`insert into credit_accounts (kind, organization_id) values (${kind}, ${organizationId}) on conflict do nothing`,
        );
        const [row] = await rows<{ id: string }>(
          db,
          sql`select id from credit_accounts where organization_id = ${organizationId} and kind = ${kind}`,
        );
        return (row as { id: string }).id;
      };
      await db.execute(sql`insert into credit_accounts (kind) values ('system')`);
      const [systemRow] = await rows<{ id: string }>(
        db,
        sql`select id from credit_accounts where kind = 'system'`,
      );
      const system = (systemRow as { id: string }).id;
      const post = (action: string, lines: [string, number][]) =>
        db.execute(sql`select post_credit_transaction(${action}, null, ${action},
        ${`{${lines.map(([a]) => a).join(',')}}`}::uuid[], ${`{${lines.map(([, n]) => n).join(',')}}`}::bigint[])`);

      const tia = await person('Tia', [alphaSchool, betaSchool]);
      const bob = await person('Bob', [alphaSchool]);
      const ann = await person('Ann', [alphaSchool]);
      const dan = await person('Dan', [alphaSchool]);
      const eve = await person('Eve', [betaSchool, betaGone]);
      const mia = await person('Mia', [betaSchool]);
      const alphaShared = await account(alphaSchool, 'shared');
      const betaShared = await account(betaSchool, 'shared');
      const goneShared = await account(betaGone, 'shared');
      await post('system_allocation', [
        [system, -2_000],
        [alphaShared, 1_000],
        [betaShared, 900],
        [goneShared, 100],
      ]);

      // Tia: 500 from Alpha School, then 300 from Beta School; 200 consumed at Beta School (Beta's lots first);
      // 50 to Bob (the oldest lot: Alpha's). She holds 450 of Alpha's and 100 of Beta's.
      await post('assign_users', [
        [alphaShared, -500],
        [tia.account, 500],
      ]);
      await post('assign_users', [
        [betaShared, -300],
        [tia.account, 300],
      ]);
      await post('consumption', [
        [tia.account, -200],
        [await account(betaSchool, 'consumed'), 200],
      ]);
      await post('transfer_users', [
        [tia.account, -50],
        [bob.account, 50],
      ]);
      // Ann: 70 from Alpha School, removed (all of it back), joins Beta School and gets 20 there.
      await post('assign_users', [
        [alphaShared, -70],
        [ann.account, 70],
      ]);
      await post('reclaim_users', [
        [ann.account, -70],
        [alphaShared, 70],
      ]);
      await db.execute(sql`delete from memberships where user_id = ${ann.id}`);
      await db.execute(
        sql`insert into memberships (user_id, organization_id, role) values (${ann.id}, ${betaSchool}, 'user')`,
      );
      await post('assign_users', [
        [betaShared, -20],
        [ann.account, 20],
      ]);
      // Dan: 40 from Alpha School, then his membership ended without them (the stranding of finding 5).
      await post('assign_users', [
        [alphaShared, -40],
        [dan.account, 40],
      ]);
      await db.execute(sql`delete from memberships where user_id = ${dan.id}`);
      // Eve: 30 from Beta Gone, which is then deleted (its pool went to Beta, its members went, their balances
      // stayed).
      await post('assign_users', [
        [goneShared, -30],
        [eve.account, 30],
      ]);
      const betaRoot = await account(beta, 'shared');
      await post('organization_deleted', [
        [goneShared, -70],
        [betaRoot, 70],
      ]);
      await db.execute(sql`delete from memberships where organization_id = ${betaGone}`);
      await db.execute(sql`delete from organization_closure where descendant_id = ${betaGone}`);
      await db.execute(sql`update organizations set deleted_at = now() where id = ${betaGone}`);
      // Mia: 25 minted straight to her.
      await post('system_allocation', [
        [system, -25],
        [mia.account, 25],
      ]);

      const pool = async (id: string) =>
        Number(
          (
            await rows<{ b: string }>(
              db,
              sql`select balance::text as b from credit_accounts where id = ${id}`,
            )
          )[0]?.b,
        );
      const alphaBefore = await pool(alphaShared);

      expect(await migrate(database)).toContain('0020_member_credit_accounts.sql');

      const held = await rows<{ who: string; org: string; balance: string }>(
        db,
        sql`select u.name as who, o.name as org, a.balance::text as balance from credit_accounts a
          join users u on u.id = a.user_id join organizations o on o.id = a.organization_id
          where a.kind = 'user' and a.balance <> 0 order by u.name, o.name`,
      );
      expect(held.map((h) => `${h.who} ${h.org} ${h.balance}`)).toEqual([
        'Ann Beta School 20',
        'Bob Alpha School 50',
        'Mia Beta School 25',
        'Tia Alpha School 450',
        'Tia Beta School 100',
      ]);
      // Dan's 40 went back to Alpha School's pool; Eve's 30 of Beta Gone to Beta's (its nearest live ancestor).
      expect(await pool(alphaShared)).toBe(alphaBefore + 40);
      expect(await pool(betaRoot)).toBe(70 + 30);
      const closed = await rows<{ n: string }>(
        db,
        sql`select count(*)::text as n from credit_accounts where kind = 'person' and balance <> 0`,
      );
      expect(closed[0]?.n).toBe('0');
      expect(await ledgerViolations(db)).toEqual([]);

      // Every move of the split is in the journal and in the logs of the organizations it reached.
      const split = await rows<{ action: string; description: string }>(
        db,
        sql`select action, description from credit_transactions where description like '%credits per membership%' order by seq`,
      );
      expect(split.length).toBe(7);

      // The members' credits of each subtree, kept by the roll-up from here on, equal a recount.
      await rollUpCreditUsage(db);
      const kept = await rows<{ id: string; kept: string; recount: string }>(
        db,
        sql`select o.id, coalesce(k.credits, 0)::text as kept, coalesce((select sum(a.balance) from organization_closure c
            join credit_accounts a on a.kind = 'user' and a.organization_id = c.descendant_id
            where c.ancestor_id = o.id), 0)::text as recount
          from organizations o left join subtree_member_credits k on k.organization_id = o.id
          where o.deleted_at is null`,
      );
      for (const row of kept) expect(row.kept, row.id).toBe(row.recount);
      expect(kept.find((r) => r.id === alpha)?.kept).toBe('500');
      expect(kept.find((r) => r.id === beta)?.kept).toBe('145');
    }, 120_000);
  },
);
