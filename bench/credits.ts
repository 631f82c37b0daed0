import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { rows } from '../apps/server/src/db/rows';
import { createSession } from '../apps/server/src/features/auth/sessions';
import {
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../apps/server/src/features/credits/journal';
import { rollUpCreditUsage } from '../apps/server/src/features/insights/usage-rollup';
import { hashIntegrationKey } from '../apps/server/src/features/integration/key-auth';
import { insertOrganization } from '../apps/server/src/features/organizations/tree';
import { recreateBenchDatabase } from './support/bench-database';
import { type CostRow, CostTable, perCall } from './support/cost-table';
import { benchDatabaseUrl } from './support/database-url';
import { type LoadResult, load, measure } from './support/load';
import { PostgresCostSampler } from './support/pg-costs';
import { startServer } from './support/server';
import { BENCH_SESSION } from './support/session';

const CONCURRENCY = 16;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const WARM_UP_SECONDS = 3;
const SCHOOLS = 50;
const TEACHERS_PER_SCHOOL = 4;
// Issue 32: an API transfer at 0.35 of the bare SQL transaction on one server process (issue 10's 0.7 before).
const TARGET_RATIO = 0.35;
const url = benchDatabaseUrl('BENCH_CREDITS_DATABASE_URL', 'allot_bench_credits');

await (await recreateBenchDatabase('credits', url)).end();

const database = await openPostgres(url, 2);
await migrate(database);
const db = database.db;
const { district, schools } = await db.transaction(async (tx) => {
  const org = (n: string, parentId: string | null) =>
    insertOrganization(tx, {
      name: n,
      type: parentId ? 'school' : 'district',
      phoneNumber: '+1 555 000 0000',
      parentId,
    });
  const districtId = await org('Bench District', null);
  const schoolIds: string[] = [];
  for (let i = 0; i < SCHOOLS; i++) schoolIds.push(await org(`Bench School ${i}`, districtId));
  const lines = [];
  for (const id of schoolIds)
    lines.push({ accountId: await organizationPoolAccountId(tx, id, 'shared'), amount: 1_000_000_000 });
  lines.push({ accountId: await systemAccountId(tx), amount: -1_000_000_000 * SCHOOLS });
  await postCreditTransaction(tx, {
    action: 'system_allocation',
    actorId: null,
    description: 'Bench',
    lines,
  });
  return { district: districtId, schools: schoolIds };
});
const [owner] = await rows<{ id: string }>(
  db,
  sql`insert into users (email, name, email_verified_at) values ('owner@bench.test', 'Bench Owner', now()) returning id`,
);
await db.execute(
  sql`insert into memberships (user_id, organization_id, role) values (${owner?.id}, ${district}, 'organization_owner')`,
);
const token = await createSession(db, owner?.id ?? '', BENCH_SESSION);
// The classroom product's side: teachers with a seat-free membership and credits of their own in every school,
// and an integration key of the district (stored as key management stores one: its SHA-256).
const teacherEmails = (
  await rows<{ email: string }>(
    db,
    sql`with t as (
          insert into users (email, name, email_verified_at)
          select 'teacher' || s.n || '-' || k || '@bench.test', 'Bench Teacher', now()
          from unnest(${`{${schools.join(',')}}`}::uuid[]) with ordinality as s(id, n),
            generate_series(1, ${TEACHERS_PER_SCHOOL}) k
          returning id, email)
        select email from t`,
  )
).map((r) => r.email);
await db.execute(sql`insert into memberships (user_id, organization_id, role)
  select u.id, s.id, 'user' from users u
  join unnest(${`{${schools.join(',')}}`}::uuid[]) with ordinality as s(id, n)
    on u.email like 'teacher' || s.n || '-%@bench.test'`);
await db.transaction(async (tx) => {
  await tx.execute(sql`insert into credit_accounts (kind, user_id, organization_id)
    select 'user', u.id, m.organization_id from users u join memberships m on m.user_id = u.id
    where u.email like 'teacher%@bench.test'`);
  const accounts = await rows<{ id: string }>(
    tx,
    sql`select a.id from credit_accounts a join users u on u.id = a.user_id where u.email like 'teacher%@bench.test'`,
  );
  await postCreditTransaction(tx, {
    action: 'system_allocation',
    actorId: null,
    description: 'Bench teachers',
    lines: [
      ...accounts.map((a) => ({ accountId: a.id, amount: 1_000_000 })),
      { accountId: await systemAccountId(tx), amount: -1_000_000 * accounts.length },
    ],
  });
});
const integrationKey = 'allot_sk_bench0000000000000000000000000000';
await db.execute(sql`insert into integration_keys (organization_id, name, prefix, key_hash)
  values (${district}, 'Bench', ${integrationKey.slice(0, 15)}, ${hashIntegrationKey(integrationKey)})`);
// The bare transaction's own tables: no triggers, no journal rules, nothing but the two balances and a line.
await db.execute(
  sql`create table bench_accounts (id int primary key, balance bigint not null check (balance >= 0))`,
);
await db.execute(sql`insert into bench_accounts select n, 1000000000 from generate_series(1, ${SCHOOLS}) n`);
await db.execute(sql`create table bench_journal (id bigserial primary key, from_id int not null, to_id int not null,
  amount bigint not null, created_at timestamptz not null default now())`);
const schoolAccounts = (
  await rows<{ id: string }>(
    db,
    sql`select id from credit_accounts where kind = 'shared' and organization_id is not null
    and organization_id <> ${district} order by id`,
  )
).map((r) => r.id);
await db.execute(sql`vacuum analyze`);
await database.close();

const pair = <T>(items: readonly T[]): [T, T] => {
  const a = Math.floor(Math.random() * items.length);
  const b = (a + 1 + Math.floor(Math.random() * (items.length - 1))) % items.length;
  return [items[a] as T, items[b] as T];
};
const transferBody = () => {
  const [source, target] = pair(schools);
  return {
    amount: 1,
    sourceOrganizationId: source,
    fromOrganizationPoolType: 'shared',
    targetOrganizationId: target,
    toOrganizationPoolType: 'shared',
  };
};

const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
/** The bare SQL transaction, as a plain client writes it: six round trips. */
const bareTransfer = async () => {
  const [from, to] = pair(Array.from({ length: SCHOOLS }, (_, i) => i + 1));
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select id from bench_accounts where id = any($1) order by id for update', [
      [from, to],
    ]);
    await client.query('update bench_accounts set balance = balance - 1 where id = $1', [from]);
    await client.query('update bench_accounts set balance = balance + 1 where id = $1', [to]);
    await client.query('insert into bench_journal (from_id, to_id, amount) values ($1, $2, 1)', [from, to]);
    await client.query('commit');
    return true;
  } catch {
    await client.query('rollback');
    return false;
  } finally {
    client.release();
  }
};
/** The ledger's posting function alone, in its own transaction, without HTTP: what the rules cost in PostgreSQL. */
const postingOnly = async () => {
  const [from, to] = pair(schoolAccounts);
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(
      `select post_credit_transaction('transfer_organizations', null, 'bench', array[$1::uuid, $2::uuid], array[-1, 1]::bigint[])`,
      [from, to],
    );
    await client.query('commit');
    return true;
  } catch {
    await client.query('rollback');
    return false;
  } finally {
    client.release();
  }
};

// The per-key rate limit (default 6,000 a minute) is lifted: the bench measures the call, not the limit.
const server = await startServer({ DATABASE_URL: url, INTEGRATION_RATE_LIMIT_PER_MINUTE: '100000000' });
const headers = { authorization: `Bearer ${token}` };
let keys = 0;
const scenarios: [
  string,
  (options: { total: number; concurrency: number; maxSeconds?: number }) => Promise<LoadResult>,
][] = [
  ['bare SQL transaction (6 round trips, no HTTP)', (o) => measure(bareTransfer, o)],
  ['post_credit_transaction alone (3 round trips)', (o) => measure(postingOnly, o)],
  ['HTTP GET /api/health (Fastify and one query)', (o) => load(`${server.url}/api/health`, {}, o)],
  [
    'HTTP POST /api/credit/transfer/organizations',
    (o) => load(`${server.url}/api/credit/transfer/organizations`, headers, { ...o, body: transferBody }),
  ],
  [
    'the same with an Idempotency-Key',
    (o) =>
      load(
        `${server.url}/api/credit/transfer/organizations`,
        () => ({ ...headers, 'idempotency-key': `bench-${keys++}` }),
        {
          ...o,
          body: transferBody,
        },
      ),
  ],
  [
    'HTTP POST /api/integration/consume (keyed)',
    (o) =>
      load(
        `${server.url}/api/integration/consume`,
        () => ({ authorization: `Bearer ${integrationKey}`, 'idempotency-key': `bench-consume-${keys++}` }),
        {
          ...o,
          body: () => ({
            email: teacherEmails[Math.floor(Math.random() * teacherEmails.length)],
            credits: 1,
            reference: `bench-${keys}`,
          }),
        },
      ),
  ],
];
console.log(
  `credits bench: PostgreSQL, ${CONCURRENCY} concurrent clients, ${REQUESTS} requests each, transfers of 1 between ${SCHOOLS} schools, one server process`,
);
const sampler = await PostgresCostSampler.open(url);
/** The scenarios the server answers: its processes' CPU is measured. */
const viaServer = new Set(scenarios.slice(2).map(([label]) => label));
const table = new CostTable(46);
console.log(table.header(sampler.seesDatabaseWal));
const measured: CostRow[] = [];
try {
  for (const [label, run] of scenarios) {
    await run({ total: Number.POSITIVE_INFINITY, concurrency: CONCURRENCY, maxSeconds: WARM_UP_SECONDS });
    const measurement = await sampler.start(viaServer.has(label) ? server.pids() : []);
    const result = await run({ total: REQUESTS, concurrency: CONCURRENCY });
    const row: CostRow = { label, key: label, result, costs: await measurement.stop() };
    measured.push(row);
    console.log(table.row(row));
  }
} finally {
  await server.stop();
  await pool.end();
  await sampler.close();
}
const [bare, posting, health, http, keyed, consume] = measured.map((r) => r.result) as [
  LoadResult,
  LoadResult,
  LoadResult,
  LoadResult,
  LoadResult,
  LoadResult,
];
const ratio = http.perSecond / bare.perSecond;
console.log(
  `\nHTTP / bare SQL: ${ratio.toFixed(2)} (${http.perSecond.toFixed(0)} / ${bare.perSecond.toFixed(0)} transfers a second; target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}); with an Idempotency-Key: ${(keyed.perSecond / bare.perSecond).toFixed(2)}`,
);
const cpu = (row: CostRow | undefined) =>
  row ? (perCall(row, row.costs.serverCpuMs) ?? 0) + (perCall(row, row.costs.pgCpuMs) ?? 0) : 0;
console.log(
  `CPU a transfer (server + PostgreSQL): ${cpu(measured[3]).toFixed(2)} ms; the bare transaction's PostgreSQL: ${cpu(measured[0]).toFixed(2)} ms; the posting function alone: ${cpu(measured[1]).toFixed(2)} ms`,
);
const share = (ms: number) => `${ms.toFixed(2)} ms`;
console.log('where one transfer’s time goes (p50, each part measured on its own at the same concurrency):');
console.log(`  HTTP, Fastify and one query (health):         ${share(health.p50)}`);
console.log(`  the posting in PostgreSQL (function alone):   ${share(posting.p50)}`);
console.log(
  `  the rest (session, access, parties, answer):  ${share(Math.max(0, http.p50 - health.p50 - posting.p50))}`,
);
console.log(
  `  whole request:                                ${share(http.p50)}; the bare transaction: ${share(bare.p50)}`,
);
console.log(
  `\nconsumption (issue 15): ${consume.perSecond.toFixed(0)} calls a second, p99 ${consume.p99.toFixed(1)} ms at ${CONCURRENCY} clients; credit transfer with an Idempotency-Key: ${keyed.perSecond.toFixed(0)} a second, p99 ${keyed.p99.toFixed(1)} ms`,
);

// The roll-up (decision 016) folds every posting into the subtree figures, a batch of 2,000 a run, every 5 s: a
// server that posts 800 transfers a second queues 4,000 between two runs, so a batch's cost must grow with
// its size, no faster (a batch of 2,000 transfers once took 7.2 s; decision 006).
{
  const database = await openPostgres(url, 1);
  await rollUpCreditUsage(database.db);
  const queued = 4_000;
  await database.db.execute(sql`select post_credit_transaction('transfer_organizations', null, 'bench',
      array[a.ids[1 + n % ${SCHOOLS}], a.ids[1 + (n + 1 + n % 7) % ${SCHOOLS}]], array[-1, 1]::bigint[])
    from (select ${`{${schoolAccounts.join(',')}}`}::uuid[] as ids) a, generate_series(1, ${queued}) n`);
  // Half of the queue in each size of batch.
  for (const batchSize of [500, 2_000]) {
    const started = performance.now();
    const rolled = await rollUpCreditUsage(database.db, { batchSize, maxBatches: queued / 2 / batchSize });
    const ms = performance.now() - started;
    console.log(
      `roll-up of transfers in batches of ${batchSize.toLocaleString('en')}: ${rolled.toLocaleString('en')} in ${ms.toFixed(0)} ms, ${((ms * 1000) / rolled).toFixed(0)} µs a transfer`,
    );
  }
  await database.close();
}
