import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/rows';
import { systemAccountId } from '../features/credits/journal';
import { rollUpCreditUsage } from '../features/insights/usage-rollup';

/**
 * A national-network-sized data set, written set-based (generate_series), level by level:
 *   5 districts → 400 networks each (2,000) → 5 schools each (10,000) → 4 each (40,000) → 1–2 each (48,000)
 * ≈ 100,000 organizations over 5 levels, and `users` teachers spread over the schools, plus an owner per
 * district and an admin per network and per school. Every organization gets pools; one journal
 * transaction mints all of it, so the ledger balances.
 */
export const SCALE_MARKER_EMAIL = 'owner1@scale.test';

const WORDS_A = [
  'North',
  'South',
  'East',
  'West',
  'Lake',
  'Hill',
  'River',
  'Oak',
  'Pine',
  'Maple',
  'Cedar',
  'Elm',
  'Stone',
  'Brook',
  'Spring',
  'Valley',
  'Forest',
  'Harbor',
  'Meadow',
  'Summit',
];
const WORDS_B = [
  'view',
  'side',
  'field',
  'wood',
  'crest',
  'ridge',
  'dale',
  'gate',
  'haven',
  'point',
  'park',
  'ford',
  'wick',
  'ton',
  'land',
  'shire',
  'mont',
  'bury',
  'worth',
  'stead',
];
const FIRST = [
  'Ava',
  'Ben',
  'Cleo',
  'Dan',
  'Eva',
  'Finn',
  'Gia',
  'Hugo',
  'Ida',
  'Jon',
  'Kai',
  'Lea',
  'Max',
  'Nia',
  'Oli',
  'Pia',
  'Quin',
  'Rosa',
  'Sam',
  'Tara',
];
const LAST = [
  'Smith',
  'Garcia',
  'Chen',
  'Okafor',
  'Novak',
  'Patel',
  'Kim',
  'Silva',
  'Muller',
  'Haddad',
  'Rossi',
  'Kowalski',
  'Tanaka',
  'Dubois',
  'Larsen',
  'Murphy',
  'Singh',
  'Costa',
  'Ivanova',
  'Reyes',
];

const arr = (words: string[]) => sql.raw(`array[${words.map((w) => `'${w}'`).join(',')}]`);
/** A place-like name from a number: 400 combinations, so a search for one word matches a few percent. */
const place = (n: SQL) =>
  sql`(${arr(WORDS_A)})[1 + (${n} % 20)] || (${arr(WORDS_B)})[1 + ((${n} / 20) % 20)]`;

interface Level {
  depth: number;
  type: string;
  label: string;
  plural: string;
  perParent: number;
  /** Only the first N parents (by row number) get the extra children beyond the first. */
  extraOnlyFirst?: number;
}

const LEVELS: Level[] = [
  { depth: 1, type: 'network', label: 'Network', plural: 'networks', perParent: 400 },
  { depth: 2, type: 'school', label: 'School', plural: 'schools', perParent: 5 },
  { depth: 3, type: 'school', label: 'Campus', plural: 'campuses', perParent: 4 },
  { depth: 4, type: 'school', label: 'Annex', plural: 'annexes', perParent: 2, extraOnlyFirst: 8_000 },
];

export async function seedScale(db: Db, options: { users: number; log?: (line: string) => void }) {
  const log = options.log ?? (() => {});
  const step = async (label: string, run: () => Promise<unknown>) => {
    const started = Date.now();
    await run();
    log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  const existing = await rows(db, sql`select 1 from users where email = ${SCALE_MARKER_EMAIL}`);
  if (existing.length > 0) return false;

  // scale_orgs lists what this run created (so data already in the database is left alone).
  await db.execute(sql`drop table if exists scale_orgs`);
  await db.execute(sql`create table scale_orgs (id uuid primary key, depth int not null)`);
  await step('districts', () =>
    db.execute(sql`
      with created as (
        insert into organizations (name, type, phone_number, depth)
        select 'Scale District ' || n, 'district', '+1 555 700 ' || lpad(n::text, 4, '0'), 0
        from generate_series(1, 5) n returning id, depth)
      insert into scale_orgs select id, depth from created`),
  );
  for (const level of LEVELS) {
    await step(`level ${level.depth}: ${level.plural}`, () =>
      db.execute(sql`
        with parents as (
          select id, row_number() over (order by id) as rn from scale_orgs where depth = ${level.depth - 1}),
        created as (
          insert into organizations (name, type, phone_number, parent_id, depth)
          select ${place(sql`(p.rn * 7 + j)`)} || ' ' || ${level.label} || ' ' || (p.rn * ${level.perParent} + j),
            ${level.type}, '+1 555 7' || lpad(((p.rn * 31 + j) % 100000)::text, 5, '0'), p.id, ${level.depth}
          from parents p cross join generate_series(1, ${level.perParent}) j
          ${level.extraOnlyFirst ? sql`where j = 1 or p.rn <= ${level.extraOnlyFirst}` : sql``}
          returning id, depth)
        insert into scale_orgs select id, depth from created`),
    );
  }
  await step('ancestry (closure table)', async () => {
    await db.execute(sql`insert into organization_closure (ancestor_id, descendant_id, depth, name)
      select s.id, s.id, 0, o.name from scale_orgs s join organizations o on o.id = s.id`);
    for (let depth = 1; depth <= LEVELS.length; depth++) {
      await db.execute(sql`insert into organization_closure (ancestor_id, descendant_id, depth, name)
        select c.ancestor_id, o.id, c.depth + 1, o.name from scale_orgs s
        join organizations o on o.id = s.id
        join organization_closure c on c.descendant_id = o.parent_id
        where s.depth = ${depth}`);
    }
  });
  await step('credit pools, minted in one balanced journal transaction', async () => {
    const system = await systemAccountId(db);
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into credit_accounts (kind, organization_id)
        select pool.kind, o.id from scale_orgs o cross join (values ('shared'), ('protected')) as pool(kind)`);
      // The bulk form of the one posting function: the lines are gathered inside PostgreSQL, so 200,010
      // accounts are one call; the function moves the balances and the organizations' stored figures.
      // Fresh statistics: without them the planner may join 200,010 new accounts with 100,005 organizations
      // row by row (seen here: over 15 minutes instead of 15 seconds).
      await tx.execute(sql`analyze scale_orgs, credit_accounts`);
      await tx.execute(sql`with lines as (
          select a.id, case a.kind when 'shared' then 1000 else 500 end::bigint as amount
          from credit_accounts a where a.organization_id in (select id from scale_orgs))
        select post_credit_transaction('system_allocation', null, 'Scale data',
          array_agg(id) || ${system}::uuid, array_agg(amount) || -sum(amount)::bigint) from lines`);
    });
  });
  await step('owners of districts, admins of networks and schools', async () => {
    await db.execute(sql`
      with admins as (
        select o.id as org_id, o.depth, row_number() over (partition by o.depth order by o.id) as rn, gen_random_uuid() as user_id
        from scale_orgs o where o.depth <= 2),
      created as (
        insert into users (id, email, name, email_verified_at)
        select user_id,
          case depth when 0 then 'owner' || rn when 1 then 'network-admin' || rn else 'school-admin' || rn end || '@scale.test',
          (${arr(FIRST)})[1 + rn % 20] || ' ' || (${arr(LAST)})[1 + (rn / 20) % 20], now()
        from admins)
      insert into memberships (user_id, organization_id, role)
      select user_id, org_id, case depth when 0 then 'organization_owner' else 'organization_admin' end from admins`);
  });
  await db.execute(sql`drop table if exists scale_schools`);
  await db.execute(sql`create table scale_schools as
    select id, row_number() over (order by id) - 1 as rn from scale_orgs where depth >= 2`);
  const [schools] = await rows<{ count: string | number }>(
    db,
    sql`select count(*) as count from scale_schools`,
  );
  const schoolCount = Number(schools?.count ?? 1);
  const batch = 100_000;
  for (let from = 1; from <= options.users; from += batch) {
    const to = Math.min(options.users, from + batch - 1);
    await step(`teachers ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')}`, () =>
      db.execute(sql`
        with t as (select n, gen_random_uuid() as id from generate_series(${from}::int, ${to}::int) n),
        created as (
          insert into users (id, email, name, email_verified_at)
          select id, 'teacher' || n || '@scale.test',
            (${arr(FIRST)})[1 + n % 20] || ' ' || (${arr(LAST)})[1 + (n / 20) % 20] || ' ' || n, now() from t)
        insert into memberships (user_id, organization_id, role)
        select t.id, s.id, 'user' from t join scale_schools s on s.rn = t.n % ${schoolCount}`),
    );
  }
  await db.execute(sql`drop table scale_schools`);
  await db.execute(sql`drop table scale_orgs`);
  // The new memberships queued their people for the members' credits (decision 014): counted now, so that a
  // server started on the data set does not spend its first minutes on them. Statistics first: planned with
  // those of the empty tables, each person's ancestors were a scan of the whole closure table (a batch of
  // 20,000 ran for over 10 minutes; with them, 1.7 s).
  await step('analyze', () => db.execute(sql`analyze`));
  await step('credit usage roll-up', () => rollUpCreditUsage(db, { batchSize: 20_000 }));
  // Vacuum too: it flushes the GIN pending lists and sets the visibility map; measured before it, the
  // searches took 2.5 to 3 times as long.
  await step('vacuum analyze', () => db.execute(sql`vacuum analyze`));
  return true;
}
