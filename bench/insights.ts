import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, openPostgres } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { rows } from '../apps/server/src/db/rows';
import { createSession } from '../apps/server/src/features/auth/sessions';
import { systemAccountId } from '../apps/server/src/features/credits/journal';
import { rollUpCreditUsage } from '../apps/server/src/features/insights/usage-rollup';
import { SCALE_MARKER_EMAIL, seedScale } from '../apps/server/src/seed/seed-scale';
import { benchDatabaseUrl, databaseUrl } from './support/database-url';
import { load } from './support/load';
import { startServer } from './support/server';
import { BENCH_SESSION } from './support/session';

const TARGET_P99_MS = 100;
const CONCURRENCY = 20;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const WARM_UP_SECONDS = 3;
const SIZES = (process.env.BENCH_INSIGHTS_SIZES ?? '20000,40000,100000').split(',').map(Number);
/** Credits of one consumption: 1 to MAX_CREDITS. */
const MAX_CREDITS = 5;
/** Consumptions posted per statement (one statement, one database transaction). */
const CHUNK = 10_000;
const baseUrl = benchDatabaseUrl('BENCH_INSIGHTS_DATABASE_URL', 'allot_bench_insights');
const baseName = new URL(baseUrl).pathname.slice(1);
const urlOf = (name: string) => databaseUrl(baseUrl, name);
const quoted = (name: string) => `"${name.replaceAll('"', '')}"`;
const seconds = (since: number) => (performance.now() - since) / 1000;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const admin = new pg.Client({ connectionString: urlOf('postgres') });
try {
  await admin.connect();
} catch {
  console.log(`insights bench skipped: no PostgreSQL answers at ${baseUrl}`);
  process.exit(0);
}
const databaseExists = async (name: string) =>
  ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount ?? 0) > 0;

// 1. The scale data, once, in the template database.
if (!(await databaseExists(baseName))) await admin.query(`create database ${quoted(baseName)}`);
{
  const database = await openPostgres(baseUrl, 2);
  const applied = await migrate(database);
  if (applied.length > 0) await database.db.execute(sql`vacuum analyze`);
  if ((await rows(database.db, sql`select 1 from users where email = ${SCALE_MARKER_EMAIL}`)).length === 0) {
    console.log('seeding the scale data set once (several minutes)…');
    await seedScale(database.db, { users: 1_000_000, log: (line) => console.log(line) });
  }
  // The seed's own postings (the mint of every pool) are rolled up here, so that the size databases' queues
  // hold only their consumptions.
  await rollUpCreditUsage(database.db, { batchSize: 10_000 });
  await database.close();
}

interface Generated {
  district: string;
  district_name: string;
  teachers: number;
  consumptions: number;
  posted_per_second: number;
  rolled_up_per_second: number;
  rolled_up_seconds: number;
  usage_days: number;
}

/**
 * The size database: a copy of the scale data (or of the previous, smaller size's database), then a year of
 * consumption by the teachers of its largest district (by members in its subtree), posted through
 * `post_credit_transaction` dated in the past (the consumptions the previous size lacks), then rolled up with
 * `rollUpCreditUsage`. What was generated and how fast is kept in `bench_insights_generated`.
 */
async function generate(
  size: number,
  name: string,
  previous: { size: number; name: string } | undefined,
): Promise<void> {
  // FILE_COPY: a copy of the files after a checkpoint, far faster than WAL_LOG for a database of gigabytes.
  let started = performance.now();
  await admin.query(
    `create database ${quoted(name)} template ${quoted(previous?.name ?? baseName)} strategy file_copy`,
  );
  console.log(
    `  copied ${previous ? previous.name : 'the scale data'} into ${name} (${seconds(started).toFixed(0)} s)`,
  );
  const database = await openPostgres(urlOf(name), 2);
  const db = database.db;
  const earlier = previous ? await generatedIn(previous.name) : undefined;
  const [district, teachers] = earlier
    ? [{ id: earlier.district, name: earlier.district_name }, earlier.teachers]
    : await prepareTeachers(db);
  const first = previous?.size ?? 0;
  await db.execute(sql`drop table if exists bench_insights_generated`);
  // Consumption i: teacher i mod teachers (so every teacher consumes, evenly), 1 to 5 credits, on one of
  // the 365 complete UTC days before today at a time of day spread over it. Each is a balanced `consumption`
  // posting as consume-credits.ts writes it (the teacher's balance −n, the school's `consumed` +n, the
  // teacher as the actor), through the one posting function, CHUNK per statement.
  started = performance.now();
  for (let from = first; from < size; from += CHUNK) {
    const to = Math.min(size, from + CHUNK) - 1;
    await db.execute(sql`select count(post_credit_transaction('consumption', t.user_id, 'Bench consumption',
        array[t.own, t.consumed], array[-(1 + i % ${MAX_CREDITS}), 1 + i % ${MAX_CREDITS}]::bigint[], '{}',
        ((now() at time zone 'UTC')::date)::timestamp at time zone 'UTC' - make_interval(days => 1 + (i * 7) % 365, secs => ((i::bigint * 7919) % 86400)::float8)))
      from generate_series(${from}::int, ${to}::int) i
      join bench_insights_teachers t on t.rn = i % ${teachers}`);
  }
  const postedPerSecond = (size - first) / seconds(started);
  console.log(`  posted ${fmt(size - first)} consumptions: ${fmt(postedPerSecond)} a second`);
  await db.execute(sql`analyze credit_transactions, credit_entries, credit_accounts, credit_usage_queue`);
  started = performance.now();
  const rolledUp = await rollUpCreditUsage(db);
  const rollUpSeconds = seconds(started);
  const [usage] = await rows<{ n: number }>(db, sql`select count(*)::int as n from credit_usage_days`);
  // As a settled database (autovacuum): fresh statistics and visibility map of the tables the generation
  // wrote (the rest was vacuumed after the seed) before the reads are measured.
  await db.execute(sql`vacuum analyze credit_transactions, credit_entries, credit_accounts, credit_usage_queue,
    credit_usage_days, member_consumption, organizations`);
  const generated: Generated = {
    district: district.id,
    district_name: district.name,
    teachers,
    consumptions: size,
    posted_per_second: postedPerSecond,
    rolled_up_per_second: rolledUp / rollUpSeconds,
    rolled_up_seconds: rollUpSeconds,
    usage_days: usage?.n ?? 0,
  };
  await db.execute(
    sql`create table bench_insights_generated (at timestamptz not null default now(), figures jsonb not null)`,
  );
  await db.execute(
    sql`insert into bench_insights_generated (figures) values (${JSON.stringify(generated)}::jsonb)`,
  );
  await database.close();
}

/**
 * The district's teachers with their accounts (`bench_insights_teachers`) and one allocation that credits
 * each teacher's own balance for the year. Answers the district and the number of teachers.
 */
async function prepareTeachers(db: Db): Promise<[{ id: string; name: string }, number]> {
  const [district] = await rows<{ id: string; name: string }>(
    db,
    sql`select o.id, o.name from organizations o
        join organization_closure c on c.ancestor_id = o.id
        join memberships m on m.organization_id = c.descendant_id
        where o.parent_id is null and o.deleted_at is null
        group by o.id order by count(*) desc, o.id limit 1`,
  );
  if (!district) throw new Error('no district in the scale data');
  // The teachers (role `user`) of its subtree, numbered, with their balance in their school and the school's
  // `consumed` account, created as consume-credits.ts creates them.
  await db.execute(sql`create table bench_insights_teachers as
    select (row_number() over (order by m.user_id) - 1)::int as rn, m.user_id, m.organization_id
    from organization_closure c join memberships m on m.organization_id = c.descendant_id
    where c.ancestor_id = ${district.id} and m.role = 'user'`);
  await db.execute(sql`insert into credit_accounts (kind, user_id, organization_id)
    select 'user', user_id, organization_id from bench_insights_teachers on conflict do nothing`);
  await db.execute(sql`insert into credit_accounts (kind, organization_id)
    select distinct 'consumed', organization_id from bench_insights_teachers on conflict do nothing`);
  await db.execute(sql`alter table bench_insights_teachers add column own uuid, add column consumed uuid`);
  await db.execute(sql`update bench_insights_teachers t set own = a.id from credit_accounts a
    where a.kind = 'user' and a.user_id = t.user_id and a.organization_id = t.organization_id`);
  await db.execute(sql`update bench_insights_teachers t set consumed = a.id from credit_accounts a
    where a.kind = 'consumed' and a.organization_id = t.organization_id`);
  await db.execute(sql`create unique index on bench_insights_teachers (rn)`);
  // Fresh statistics for the 200,000 accounts just created: with the old ones the planner joins the
  // allocation's lines with the accounts row by row (seen: minutes instead of seconds).
  await db.execute(sql`analyze bench_insights_teachers, credit_accounts`);
  const [counted] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from bench_insights_teachers`,
  );
  const teachers = counted?.n ?? 0;
  // One system allocation a year and a day ago credits every teacher's own balance with what their share
  // of the consumptions of the largest size can draw at most, so that every consumption comes from the
  // teacher's balance (sizes above those of the first run need BENCH_INSIGHTS_REGENERATE=1).
  const perTeacher = Math.ceil(Math.max(...SIZES) / teachers) * MAX_CREDITS;
  const system = await systemAccountId(db);
  await db.execute(sql`with lines as (select own as id, ${perTeacher}::bigint as amount from bench_insights_teachers)
    select post_credit_transaction('system_allocation', null, 'Bench: the year''s credits',
      array_agg(id) || ${system}::uuid, array_agg(amount) || -sum(amount)::bigint, '{}',
      ((now() at time zone 'UTC')::date - 366)::timestamp at time zone 'UTC') from lines`);
  return [district, teachers];
}

async function generatedIn(name: string): Promise<(Generated & { at: string }) | undefined> {
  const database = await openPostgres(urlOf(name), 2);
  try {
    const [found] = await rows<{ at: string; figures: Generated }>(
      database.db,
      sql`select to_char(at, 'YYYY-MM-DD') as at, figures from bench_insights_generated
          where to_regclass('bench_insights_generated') is not null`,
    ).catch(() => []);
    return found ? { ...found.figures, at: found.at } : undefined;
  } finally {
    await database.close();
  }
}

console.log(
  `insights bench: scale data set plus a year of consumption by the teachers of its largest district, PostgreSQL, ${CONCURRENCY} concurrent clients, ${REQUESTS} requests each`,
);
let missed = 0;
let runs = 0;
let previous: { size: number; name: string } | undefined;
for (const size of SIZES) {
  const name = `${baseName}_${size}`;
  if (process.env.BENCH_INSIGHTS_REGENERATE === '1' || !(await generatedIn(name).catch(() => undefined))) {
    await admin.query(`drop database if exists ${quoted(name)} with (force)`);
    console.log(`\ngenerating ${fmt(size)} consumptions in ${name}…`);
    await generate(size, name, previous);
  }
  const generated = (await generatedIn(name)) as Generated & { at: string };
  console.log(
    `\n${fmt(generated.consumptions)} consumption transactions over 365 days by ${fmt(generated.teachers)} teachers of ${generated.district_name}; ${fmt(generated.usage_days)} rows in credit_usage_days`,
  );
  console.log(
    `roll-up (generated ${generated.at}): ${fmt(generated.rolled_up_per_second * generated.rolled_up_seconds)} journal transactions in ${generated.rolled_up_seconds.toFixed(1)} s, ${fmt(generated.rolled_up_per_second)} a second; posting: ${fmt(generated.posted_per_second)} a second`,
  );

  const database = await openPostgres(urlOf(name), 2);
  const [owner] = await rows<{ id: string }>(
    database.db,
    sql`select m.user_id as id from memberships m where m.organization_id = ${generated.district}
        and m.role = 'organization_owner'`,
  );
  const token = await createSession(database.db, owner?.id ?? '', BENCH_SESSION);
  await database.close();
  const d = generated.district;
  const scenarios: [string, string][] = [
    ['credit usage of the district, 90 days', `/api/organization/${d}/credit-usage`],
    ['credit usage of the district, 365 days', `/api/organization/${d}/credit-usage?days=365`],
    ['sub-organizations by days left', `/api/organization/${d}/sub-organizations?key=daysLeft&order=asc`],
    ['sub-organizations by name (comparison)', `/api/organization/${d}/sub-organizations?key=name&order=asc`],
  ];
  const server = await startServer({ DATABASE_URL: urlOf(name), WEB_CONCURRENCY: '1' });
  console.log(
    `${'scenario'.padEnd(42)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'req/s'.padStart(8)}  answer`,
  );
  try {
    for (const [label, path] of scenarios) {
      const headers = { authorization: `Bearer ${token}` };
      // What it answers, so that a fast wrong answer shows.
      const body = (await (await fetch(`${server.url}${path}`, { headers })).json()) as {
        forecast?: { creditsAvailable: number; meanDailyConsumption: number; runsOutOn: string | null };
        data?: { daysLeft: number | null }[];
        pagination?: { total: number };
      };
      const answer = body.forecast
        ? `available ${fmt(body.forecast.creditsAvailable)}, mean ${body.forecast.meanDailyConsumption.toFixed(0)}/day, runs out ${body.forecast.runsOutOn ?? 'not within a year'}`
        : `${body.pagination?.total} children, days left of the first: ${body.data?.[0]?.daysLeft ?? '—'}`;
      await load(`${server.url}${path}`, headers, {
        total: Number.POSITIVE_INFINITY,
        concurrency: CONCURRENCY,
        maxSeconds: WARM_UP_SECONDS,
      });
      const r = await load(`${server.url}${path}`, headers, {
        total: REQUESTS,
        concurrency: CONCURRENCY,
        maxSeconds: 30,
      });
      const met = r.p99 < TARGET_P99_MS && r.errors === 0;
      runs++;
      if (!met) missed++;
      console.log(
        `${label.padEnd(42)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${r.perSecond.toFixed(0).padStart(8)}  ${answer}; ${r.count} requests, target p99 < ${TARGET_P99_MS} ms: ${met ? 'met' : r.errors ? `${r.errors} errors` : 'missed'}`,
      );
    }
  } finally {
    await server.stop();
  }
  previous = { size, name };
}
await admin.end();
console.log(
  missed === 0
    ? `\ntarget p99 < ${TARGET_P99_MS} ms: met (all ${runs} runs)`
    : `\ntarget p99 < ${TARGET_P99_MS} ms: missed (${missed} of ${runs} runs over it)`,
);
