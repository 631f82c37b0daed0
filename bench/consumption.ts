// The classroom product's calls at network scale (issue 31): consumption from the schools' shared pools, one
// call at a time (64 clients, and one client) and in batches of 100, and entitlement checks, with 1 and 2
// server processes, next to the same consumption as a bare SQL transaction on the same database. For each:
// throughput, latency, and what a call costs the server and PostgreSQL (CPU, commits, tuples, WAL, lock waits).
//
// BENCH_SECONDS (10) and BENCH_WARMUP_SECONDS (2) a scenario, BENCH_CLIENTS (64), BENCH_SCHOOLS (40),
// BENCH_PROCESSES (1,2): e.g. `BENCH_SECONDS=3 node --import tsx bench/consumption.ts` for a quick run.
// BENCH_CONSUMPTION_DATABASE_URL: another PostgreSQL (its database is dropped and created).
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { createSession } from '../apps/server/src/features/auth/sessions';
import { rollUpCreditUsage } from '../apps/server/src/features/insights/usage-rollup';
import { freshBenchDatabase, positive } from './support/bench-database';
import { type CostRow, CostTable, perCall, walOf } from './support/cost-table';
import { benchDatabaseUrl } from './support/database-url';
import { seedDistrict, type Teacher } from './support/district';
import { type LoadResult, load, measure, send } from './support/load';
import { PostgresCostSampler } from './support/pg-costs';
import { type StartedServer, startServer } from './support/server';
import { BENCH_SESSION } from './support/session';

const SECONDS = positive('BENCH_SECONDS', 10);
const WARM_UP_SECONDS = positive('BENCH_WARMUP_SECONDS', 2);
const CLIENTS = positive('BENCH_CLIENTS', 64);
const SCHOOLS = positive('BENCH_SCHOOLS', 40);
const PROCESSES = (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number);
if (!PROCESSES.every((n) => Number.isInteger(n) && n > 0)) {
  throw new Error(
    `BENCH_PROCESSES must list server process counts, like 1,2: not ${process.env.BENCH_PROCESSES}`,
  );
}
const TEACHERS_PER_SCHOOL = 5;
const BATCH = 100;
const POOL_CREDITS = 1_000_000_000;
const TARGETS = { singleOverBare: 0.3, lockWaitPoints: 10, entitlementWal: 0, batchOverTenSingles: 1 };

const url = benchDatabaseUrl(
  'BENCH_CONSUMPTION_DATABASE_URL',
  `bench_consumption_${process.pid}_${Date.now().toString(36)}`,
);
// Whatever happens (an error, Ctrl-C), the server processes are stopped and the database dropped.
const bench = await freshBenchDatabase('consumption', url, 'start it, or set BENCH_CONSUMPTION_DATABASE_URL');
const { shownUrl, cleanUp, admin } = bench;

// --- figures -------------------------------------------------------------------------------------------

type Row = CostRow;
const table = new CostTable(34, true);
const print = (row: Row) => console.log(table.row(row));

// --- the data ------------------------------------------------------------------------------------------

console.log(
  `consumption bench: PostgreSQL ${shownUrl}, ${SCHOOLS} schools × ${TEACHERS_PER_SCHOOL} teachers of one district (no credits of their own, ${POOL_CREDITS.toLocaleString('en-US')} in each school's shared pool), ${CLIENTS} clients, ${WARM_UP_SECONDS} s warm-up + ${SECONDS} s a scenario`,
);
/** A failure before the scenarios: said, then the database dropped. */
async function fail(error: unknown): Promise<never> {
  console.error(`\nconsumption bench failed: ${(error as Error).stack ?? error}`);
  await cleanUp();
  process.exit(1);
}

async function seed() {
  const database = await openPostgres(url, 2);
  try {
    const seedStarted = performance.now();
    await migrate(database);
    const district = await seedDistrict(database.db, {
      schools: SCHOOLS,
      teachersPerSchool: TEACHERS_PER_SCHOOL,
      poolCredits: POOL_CREDITS,
    });
    const ownerToken = await createSession(database.db, district.ownerId, BENCH_SESSION);
    // The bare transaction's own tables, shaped like the ledger's rows: one account per teacher and per school
    // pool, a journal line per consumption; no triggers, no rules but a balance not below zero.
    await database.db.execute(
      sql`create table bench_bare_accounts (id int primary key, balance bigint not null check (balance >= 0))`,
    );
    await database.db.execute(sql`insert into bench_bare_accounts
    select n, 0 from generate_series(1, ${district.teachers.length}) n
    union all select 100000 + n, ${POOL_CREDITS} from generate_series(0, ${SCHOOLS - 1}) n`);
    await database.db.execute(sql`create table bench_bare_journal (id bigserial primary key, teacher_id int not null,
    pool_id int not null, amount bigint not null, reference text not null, created_at timestamptz not null default now())`);
    await database.db.execute(sql`vacuum analyze bench_bare_accounts, bench_bare_journal`);
    console.log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`);
    return { district, ownerToken };
  } finally {
    await database.close();
  }
}
const { district, ownerToken } = await seed().catch(fail);
const { teachers } = district;
const randomTeacher = (): Teacher => teachers[Math.floor(Math.random() * teachers.length)] as Teacher;

const sampler = await PostgresCostSampler.open(url).catch(fail);
bench.onCleanUp(() => sampler.close());
if (!sampler.seesPostgresCpu) console.log('(PostgreSQL runs elsewhere: its CPU is not measured)');
const autovacuum = (await admin.query<{ autovacuum: string }>('show autovacuum')).rows[0]?.autovacuum;
if (autovacuum !== 'on')
  console.log('(autovacuum is off on this PostgreSQL: the bench analyzes after each warm-up)');

/**
 * Fresh planner statistics, as autovacuum keeps them: planned with those of the tables as seeded, the ledger's
 * function scans the whole journal on each posting (credit_entries_apply's join), and a run reads more and
 * more tuples a call. Where autovacuum is off (as on the shared machine here), nothing else would.
 */
async function analyze() {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

/**
 * Rolls up what the scenario before left queued (the server's roll-up job does it every 5 s): a scenario is
 * charged for its own journal transactions' roll-up, never for the one before's.
 */
async function drainRollUp() {
  const database = await openPostgres(url, 1);
  try {
    await rollUpCreditUsage(database.db);
  } finally {
    await database.close();
  }
}

/** The queue drained, warm-up, fresh statistics, then the measured run with the costs sampled around it. */
async function scenario(
  label: string,
  key: string,
  run: (seconds: number) => Promise<LoadResult>,
  server?: StartedServer,
  items?: { reset: () => void; count: () => number },
): Promise<Row> {
  await drainRollUp();
  await run(WARM_UP_SECONDS);
  await analyze();
  items?.reset();
  const measurement = await sampler.start(server?.pids() ?? []);
  const result = await run(SECONDS);
  const costs = await measurement.stop();
  const row: Row = { label, key, result, costs };
  if (items) row.itemsPerSecond = items.count() / (result.count / result.perSecond || 1);
  return row;
}

let reportedConsumed = 0;
const errors = new Map<string, string>();
/** A 200 answer's consumption added to what the API reported; the first other answer of a scenario kept. */
const checked = (key: string, consumedOf: (answer: unknown) => number) => (status: number, body: string) => {
  if (status === 200) {
    reportedConsumed += consumedOf(JSON.parse(body));
    return true;
  }
  if (!errors.has(key)) errors.set(key, `${status} ${body}`);
  return false;
};

console.log(table.header(sampler.seesDatabaseWal));
const results: Row[] = [];
let batchAvailable = true;
try {
  // 1. The bare SQL consumption: lock the teacher's row and the pool's, take from the pool, a journal line.
  const [room] = (
    await admin.query<{ free: number; max: number }>(
      `select current_setting('max_connections')::int - (select count(*) from pg_stat_activity where backend_type = 'client backend')::int as free,
         current_setting('max_connections')::int as max`,
    )
  ).rows;
  if (room && room.free < CLIENTS + 5) {
    throw new Error(
      `PostgreSQL has ${room.free} free connections of ${room.max}: the bare scenario needs ${CLIENTS} (BENCH_CLIENTS)`,
    );
  }
  const bare = new pg.Pool({ connectionString: url, max: CLIENTS });
  try {
    const bareConsume = async () => {
      const index = Math.floor(Math.random() * teachers.length);
      const pool = 100000 + (teachers[index] as Teacher).school;
      const client = await bare.connect();
      try {
        await client.query('begin');
        await client.query(
          'select id, balance from bench_bare_accounts where id = any($1) order by id for update',
          [[index + 1, pool]],
        );
        await client.query('update bench_bare_accounts set balance = balance - 1 where id = $1', [pool]);
        await client.query(
          'insert into bench_bare_journal (teacher_id, pool_id, amount, reference) values ($1, $2, 1, $3)',
          [index + 1, pool, 'bench'],
        );
        await client.query('commit');
        return true;
      } catch (error) {
        await client.query('rollback');
        if (!errors.has('bare')) errors.set('bare', (error as Error).message);
        return false;
      } finally {
        client.release();
      }
    };
    const row = await scenario('bare SQL consumption', 'bare', (seconds) =>
      measure(bareConsume, { total: Number.POSITIVE_INFINITY, concurrency: CLIENTS, maxSeconds: seconds }),
    );
    row.firstError = errors.get('bare');
    results.push(row);
    print(row);
  } finally {
    await bare.end();
  }

  let integrationKey: string | undefined;
  for (const processes of PROCESSES) {
    // The per-key rate limit (default 6,000 a minute) is lifted: the bench measures the calls, not the limit.
    const server = await startServer({
      DATABASE_URL: url,
      WEB_CONCURRENCY: String(processes),
      INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000000000',
    });
    bench.onCleanUp(() => server.stop());
    try {
      const agent = new Agent({ keepAlive: true });
      try {
        if (!integrationKey) {
          const created = await send(
            `${server.url}/api/organization/${district.districtId}/integration-keys`,
            { authorization: `Bearer ${ownerToken}` },
            agent,
            JSON.stringify({ name: 'Bench' }),
            true,
          );
          if (created.status !== 201)
            throw new Error(`creating the integration key: ${created.status} ${created.body}`);
          integrationKey = (JSON.parse(created.body) as { key: string }).key;
        }
        const probe = await send(
          `${server.url}/api/integration/entitlement?email=${encodeURIComponent(teachers[0]?.email ?? '')}`,
          { authorization: `Bearer ${integrationKey}` },
          agent,
          undefined,
          true,
        );
        if (probe.status !== 200 || !(JSON.parse(probe.body) as { entitled: boolean }).entitled) {
          throw new Error(`a seeded teacher is not entitled: ${probe.status} ${probe.body}`);
        }
      } finally {
        agent.destroy();
      }
      const key = integrationKey;
      const keyed = () => ({ authorization: `Bearer ${key}`, 'idempotency-key': randomUUID() });
      const suffix = `${processes} process${processes === 1 ? '' : 'es'}`;

      // 2. One consumption a call: from 64 clients (their calls share transactions), then from one client (each
      // call finds a transaction free and runs in its own, as a product that sends its calls one after the other).
      for (const [key, label, concurrency] of [
        [`single/${processes}`, `consume, ${suffix}`, CLIENTS],
        [`alone/${processes}`, `consume, 1 client, ${suffix}`, 1],
      ] as const) {
        const singleRow = await scenario(
          label,
          key,
          (seconds) =>
            load(`${server.url}/api/integration/consume`, keyed, {
              total: Number.POSITIVE_INFINITY,
              concurrency,
              maxSeconds: seconds,
              body: () => ({ email: randomTeacher().email, credits: 1, reference: `bench-${randomUUID()}` }),
              check: checked(key, (a) => (a as { consumed: number }).consumed),
            }),
          server,
        );
        singleRow.firstError = errors.get(key);
        results.push(singleRow);
        print(singleRow);
      }

      // 3. Batches of 100 (CONTRACT §9), when the server has the endpoint.
      const batch = `batch/${processes}`;
      const batchBody = () => ({
        items: Array.from({ length: BATCH }, () => ({
          email: randomTeacher().email,
          credits: 1,
          reference: `bench-${randomUUID()}`,
        })),
      });
      let items = 0;
      const batchConsumed = (answer: unknown) => {
        let sum = 0;
        for (const r of (answer as { results: { status: string; consumed: number }[] }).results) {
          if (r.status === 'consumed') {
            sum += r.consumed;
            items++;
          } else if (!errors.has(`${batch}/refused`)) errors.set(`${batch}/refused`, JSON.stringify(r));
        }
        return sum;
      };
      const batchAgent = new Agent({ keepAlive: true });
      const batchProbe = await send(
        `${server.url}/api/integration/consume/batch`,
        keyed(),
        batchAgent,
        JSON.stringify(batchBody()),
        true,
      ).finally(() => batchAgent.destroy());
      // Without the route: 404, or 401 when the key is refused first, as on any call that is not an integration call.
      if (
        batchProbe.status === 404 ||
        (batchProbe.status === 401 && batchProbe.body.includes('integration calls only'))
      ) {
        batchAvailable = false;
        console.log(
          `${`batch of ${BATCH}, ${suffix}`.padEnd(34)} batch: endpoint not available (${batchProbe.status})`,
        );
      } else {
        if (batchProbe.status === 200) reportedConsumed += batchConsumed(JSON.parse(batchProbe.body));
        const batchRow = await scenario(
          `batch of ${BATCH}, ${suffix}`,
          batch,
          (seconds) =>
            load(`${server.url}/api/integration/consume/batch`, keyed, {
              total: Number.POSITIVE_INFINITY,
              concurrency: CLIENTS,
              maxSeconds: seconds,
              body: batchBody,
              check: checked(batch, batchConsumed),
            }),
          server,
          {
            reset: () => {
              items = 0;
            },
            count: () => items,
          },
        );
        batchRow.firstError = errors.get(batch) ?? errors.get(`${batch}/refused`);
        results.push(batchRow);
        print(batchRow);
      }

      // 4. Entitlement checks.
      const entitlement = `entitlement/${processes}`;
      const entitlementRow = await scenario(
        `entitlement, ${suffix}`,
        entitlement,
        (seconds) =>
          load(
            () =>
              `${server.url}/api/integration/entitlement?email=${encodeURIComponent(randomTeacher().email)}`,
            { authorization: `Bearer ${key}` },
            {
              total: Number.POSITIVE_INFINITY,
              concurrency: CLIENTS,
              maxSeconds: seconds,
              check: checked(entitlement, () => 0),
            },
          ),
        server,
      );
      entitlementRow.firstError = errors.get(entitlement);
      results.push(entitlementRow);
      print(entitlementRow);
    } finally {
      await server.stop();
    }
  }

  // --- what the issue targets ----------------------------------------------------------------------------
  const row = (key: string) => results.find((r) => r.key === key);
  const bareRow = row('bare') as Row;
  const cpu = (r: Row) =>
    r.costs.serverCpuMs === null || r.costs.pgCpuMs === null
      ? null
      : (r.costs.serverCpuMs + r.costs.pgCpuMs) / Math.max(1, r.result.count);
  const targets: Record<string, unknown>[] = [];
  console.log('\ntargets (issue 31, on this machine):');
  for (const processes of PROCESSES) {
    const single = row(`single/${processes}`);
    const batch = row(`batch/${processes}`);
    const entitlement = row(`entitlement/${processes}`);
    if (!single || !entitlement) continue;
    const ratio = single.result.perSecond / bareRow.result.perSecond;
    const points = (single.costs.lockWaitShare - bareRow.costs.lockWaitShare) * 100;
    const wal = perCall(entitlement, walOf(entitlement.costs)) ?? 0;
    const batchCpu = batch ? cpu(batch) : null;
    /** What a batch costs against ten calls of a single-call scenario. */
    const overTen = (calls: Row | undefined) => {
      const callCpu = calls ? cpu(calls) : null;
      return batchCpu !== null && callCpu ? batchCpu / (10 * callCpu) : null;
    };
    const batchOverTen = overTen(single);
    const batchOverTenAlone = overTen(row(`alone/${processes}`));
    const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
    console.log(
      `  ${processes} process${processes === 1 ? ': ' : 'es:'} consume / bare ${ratio.toFixed(2)} (≥ ${TARGETS.singleOverBare}: ${verdict(ratio >= TARGETS.singleOverBare)}); lock waits ${points >= 0 ? '+' : ''}${points.toFixed(0)} points over bare (≤ ${TARGETS.lockWaitPoints}: ${verdict(points <= TARGETS.lockWaitPoints)}); entitlement WAL ${wal.toFixed(1)} B a call (0 on the common path, so under 1 B with the key's last use written once a minute: ${verdict(wal < 1)}${entitlement.costs.databaseWalBytes === null ? `; the whole cluster's: other databases committed ${entitlement.costs.otherCommits} meanwhile` : ''}); batch of ${BATCH} / 10 single calls, server + PG CPU: ${batchOverTen === null ? (batch ? 'n/a' : 'no batch endpoint') : `${batchOverTen.toFixed(2)} (< 1: ${verdict(batchOverTen < TARGETS.batchOverTenSingles)})`}${batchOverTenAlone === null ? '' : `; against 10 calls of one client, each in a transaction of its own: ${batchOverTenAlone.toFixed(2)}`}`,
    );
    targets.push({
      processes,
      consumeOverBare: round(ratio, 3),
      lockWaitPointsOverBare: round(points, 1),
      entitlementWalBytesPerCall: round(wal, 0),
      batchCpuOverTenSingles: batchOverTen === null ? null : round(batchOverTen, 3),
      batchCpuOverTenCallsOfOneClient: batchOverTenAlone === null ? null : round(batchOverTenAlone, 3),
    });
  }

  // --- nothing lost, nothing doubled -----------------------------------------------------------------------
  // Consumed accounts: what they received is the sum of their entries (since migration 0033 they keep no
  // balance); every other account's balance is the sum of its entries.
  const check = new pg.Client({ connectionString: url });
  await check.connect();
  let conservation: Record<string, number>;
  try {
    const { rows: found } = await check.query<Record<string, string>>(
      `select
         (select count(*) from credit_accounts where balance < 0 and kind <> 'system')::text as negative,
         (select coalesce(sum(balance), 0) from credit_accounts
            where kind = 'shared' and organization_id = any($1))::text as pools,
         (select coalesce(sum(balance), 0) from credit_accounts where kind = 'user')::text as own,
         (select coalesce(sum(e.amount), 0) from credit_entries e join credit_accounts a on a.id = e.account_id
            where a.kind = 'consumed')::text as journal_consumed,
         (select count(*) from credit_entries e join credit_accounts a on a.id = e.account_id
            where a.kind = 'consumed' and e.amount < 0)::text as consumed_taken_back,
         (select coalesce(sum(balance), 0) from credit_accounts where kind <> 'consumed')::text as balances,
         (select count(*) from credit_accounts a where a.kind <> 'consumed' and a.balance <>
            coalesce((select sum(e.amount) from credit_entries e where e.account_id = a.id), 0))::text as off_journal`,
      [district.schoolIds],
    );
    const c = Object.fromEntries(Object.entries(found[0] ?? {}).map(([k, v]) => [k, Number(v)]));
    conservation = {
      reportedConsumed,
      poolsDecrease: SCHOOLS * POOL_CREDITS - (c.pools ?? 0),
      journalConsumed: c.journal_consumed ?? 0,
      teachersOwn: c.own ?? 0,
      negativeBalances: c.negative ?? 0,
      consumedTakenBack: c.consumed_taken_back ?? 0,
      balancesPlusConsumed: (c.balances ?? 0) + (c.journal_consumed ?? 0),
      balancesOffTheirJournal: c.off_journal ?? 0,
    };
  } finally {
    await check.end();
  }
  const held =
    conservation.negativeBalances === 0 &&
    conservation.balancesOffTheirJournal === 0 &&
    conservation.balancesPlusConsumed === 0 &&
    conservation.consumedTakenBack === 0 &&
    conservation.teachersOwn === 0 &&
    conservation.reportedConsumed === conservation.poolsDecrease &&
    conservation.poolsDecrease === conservation.journalConsumed;
  console.log(
    `\nconservation: ${held ? 'held' : 'BROKEN'}: consumed as the API answered ${conservation.reportedConsumed}, pools' decrease ${conservation.poolsDecrease}, into the consumed accounts (journal) ${conservation.journalConsumed}; teachers' own ${conservation.teachersOwn}; balances below zero ${conservation.negativeBalances}; all balances + consumed (minted by the system account: 0) ${conservation.balancesPlusConsumed}; balances off their journal ${conservation.balancesOffTheirJournal}`,
  );

  console.log(
    JSON.stringify({
      bench: 'consumption',
      at: new Date().toISOString(),
      settings: {
        seconds: SECONDS,
        warmUpSeconds: WARM_UP_SECONDS,
        clients: CLIENTS,
        schools: SCHOOLS,
        teachersPerSchool: TEACHERS_PER_SCHOOL,
        batch: BATCH,
      },
      batchAvailable,
      scenarios: results.map((r) => ({
        scenario: r.key,
        callsPerSecond: round(r.result.perSecond, 0),
        ...(r.itemsPerSecond === undefined ? {} : { consumptionsPerSecond: round(r.itemsPerSecond, 0) }),
        p50Ms: round(r.result.p50, 2),
        p99Ms: round(r.result.p99, 2),
        calls: r.result.count,
        errors: r.result.errors,
        serverCpuMsPerCall: round(perCall(r, r.costs.serverCpuMs), 3),
        pgCpuMsPerCall: round(perCall(r, r.costs.pgCpuMs), 3),
        pgBackgroundCpuMsPerCall: round(perCall(r, r.costs.pgBackgroundCpuMs), 3),
        commitsPerCall: round(perCall(r, r.costs.commits), 3),
        tuplesReadPerCall: round(perCall(r, r.costs.tuplesRead), 1),
        tuplesWrittenPerCall: round(perCall(r, r.costs.tuplesWritten), 2),
        walBytesPerCall: round(perCall(r, r.costs.databaseWalBytes), 0),
        clusterWalBytesPerCall: round(perCall(r, r.costs.walBytes), 0),
        otherDatabasesCommits: r.costs.otherCommits,
        lockWaitShare: round(r.costs.lockWaitShare, 3),
        waitEvents: Object.fromEntries(
          r.costs.waitEvents.slice(0, 5).map((w) => [w.event, round(w.share, 3)]),
        ),
        rowsReadPerCallByTable: Object.fromEntries(
          r.costs.tables
            .slice(0, 5)
            .map((t) => [t.table, round(t.rowsRead / Math.max(1, r.result.count), 1)]),
        ),
      })),
      targets,
      conservation: { held, ...conservation },
    }),
  );
  if (!held) process.exitCode = 1;
} catch (error) {
  // Interrupted: the cleaning up closed what the scenario was using; nothing more to say.
  if (!bench.interrupted()) console.error(`\nconsumption bench failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}

function round(value: number | null, digits: number): number | null {
  if (value === null) return null;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
