// Authenticated reads (issue 32): `GET /api/organization/{id}?credits=true` by a signed-in district owner, with
// one server process, next to the bare minimum such a read needs (bench/support/minimal-read-server.ts: Fastify,
// a pg pool, one `select` of the row), on one PostgreSQL with the same load generator. For each: calls/s,
// latency, and what a call costs the server and PostgreSQL (CPU, commits, tuples read, WAL). The API runs
// twice: with its access log (LOG_LEVEL=info, the default; written to a file) and without (warn), which
// measures the log.
//
// The three servers run side by side and are loaded in turn, in slices of BENCH_SLICE_SECONDS (2) for
// BENCH_CYCLES (6) cycles: on a shared machine whatever else runs weighs on all three alike, where one run after
// another compared minutes that other work made unequal (a ratio of 0.12 in one round and 1.22 in the next).
// CPU is read from /proc around each slice: the server's process, and PostgreSQL's backends by the connection's
// application_name. Commits, tuples and WAL (pg_stat_database, per database) are measured after, one server at
// a time for BENCH_COST_SECONDS (3), each stopped before they are read (a backend reports them when it ends).
// BENCH_WARMUP_SECONDS (3) each first, BENCH_CLIENTS (64).
// BENCH_READS_DATABASE_URL: another PostgreSQL (its database is dropped and created).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, openPostgres } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { createSession } from '../apps/server/src/features/auth/sessions';
import {
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../apps/server/src/features/credits/journal';
import { insertOrganization } from '../apps/server/src/features/organizations/tree';
import { freshBenchDatabase, positive } from './support/bench-database';
import { benchDatabaseUrl, databaseUrl } from './support/database-url';
import { seedDistrict } from './support/district';
import { load } from './support/load';
import { type Costs, PostgresCostSampler } from './support/pg-costs';
import { cpuMs } from './support/proc';
import { freePort, startServer } from './support/server';
import { BENCH_SESSION } from './support/session';

const SLICE_SECONDS = positive('BENCH_SLICE_SECONDS', 2);
const CYCLES = positive('BENCH_CYCLES', 6);
const COST_SECONDS = positive('BENCH_COST_SECONDS', 3);
const WARM_UP_SECONDS = positive('BENCH_WARMUP_SECONDS', 3);
const CLIENTS = positive('BENCH_CLIENTS', 64);
const SCHOOLS = 20;
const TEACHERS_PER_SCHOOL = 5;
/** Other tenants in the database (`seedOtherTenants`): districts of 4 schools, 30 people each. */
const OTHER_DISTRICTS = 100;
const TARGET = 0.45;

const url = benchDatabaseUrl('BENCH_READS_DATABASE_URL', 'allot_bench_reads');
const bench = await freshBenchDatabase('reads', url);
const { shownUrl, cleanUp } = bench;
const logDir = mkdtempSync(path.join(tmpdir(), 'allot-bench-reads-'));
bench.onCleanUp(async () => rmSync(logDir, { recursive: true, force: true }));

// --- the data: a district with schools, credits in every pool, members ------------------------------------
const { districtId, ownerToken } = await (async () => {
  const database = await openPostgres(url, 2);
  try {
    await migrate(database);
    const district = await seedDistrict(database.db, {
      schools: SCHOOLS,
      teachersPerSchool: TEACHERS_PER_SCHOOL,
      poolCredits: 10_000,
    });
    await database.db.transaction(async (tx) => {
      const lines = [
        { accountId: await organizationPoolAccountId(tx, district.districtId, 'shared'), amount: 50_000 },
        { accountId: await organizationPoolAccountId(tx, district.districtId, 'protected'), amount: 5_000 },
        { accountId: await systemAccountId(tx), amount: -55_000 },
      ];
      await postCreditTransaction(tx, {
        action: 'system_allocation',
        actorId: null,
        description: 'Bench',
        lines,
      });
    });
    await seedOtherTenants(database.db);
    await database.db.execute(sql`analyze`);
    return {
      districtId: district.districtId,
      ownerToken: await createSession(database.db, district.ownerId, BENCH_SESSION),
    };
  } finally {
    await database.close();
  }
})();

/**
 * Other tenants beside the district, as a database that serves more than one has them: with only the district,
 * every table is a page or two, PostgreSQL reads them whole rather than through their indexes, and a read
 * costs what scanning them costs (320 tuples a call, where the issue measured 27–110).
 */
async function seedOtherTenants(db: Db) {
  await db.transaction(async (tx) => {
    for (let d = 0; d < OTHER_DISTRICTS; d++) {
      const district = await insertOrganization(tx, {
        name: `Other District ${d + 1}`,
        type: 'district',
        phoneNumber: '+1 555 000 0001',
        parentId: null,
      });
      for (let k = 0; k < 4; k++) {
        await insertOrganization(tx, {
          name: `Other School ${d + 1}-${k + 1}`,
          type: 'school',
          phoneNumber: '+1 555 000 0001',
          parentId: district,
        });
      }
    }
    // Their people: an owner for each organization, teachers in the schools, and the owners' sessions.
    await tx.execute(sql`insert into users (email, name, email_verified_at)
      select 'other' || n || '@bench.test', 'Other Person ' || n, now() from generate_series(1, ${OTHER_DISTRICTS * 30}) n`);
    await tx.execute(sql`insert into memberships (user_id, organization_id, role)
      select u.id, o.id, case when row_number() over (partition by o.id order by u.email) = 1
                          then 'organization_owner' else 'user' end
      from (select id, row_number() over (order by id) as i from organizations where name like 'Other %') o
      join (select id, email, row_number() over (order by id) as i from users where email like 'other%') u
        on u.i % ${OTHER_DISTRICTS * 5} = o.i % ${OTHER_DISTRICTS * 5}`);
    await tx.execute(sql`insert into sessions (token_hash, user_id, expires_at)
      select md5(random()::text) || md5(random()::text), id, now() + interval '7 days'
      from users where email like 'other%'`);
  });
}

const sampler = await PostgresCostSampler.open(url);
bench.onCleanUp(() => sampler.close());
const activity = new pg.Client({ connectionString: databaseUrl(url, 'postgres') });
await activity.connect();
bench.onCleanUp(() => activity.end());

// --- the servers -----------------------------------------------------------------------------------------------
type Key = 'minimal' | 'api' | 'api-nolog';
interface Target {
  key: Key;
  label: string;
  url: string;
  headers: Record<string, string>;
  pids: () => number[];
  stop: () => Promise<void>;
}
/** The database URL a target connects with: its backends are told apart by their application_name. */
const urlOf = (key: Key) => {
  const named = new URL(url);
  named.searchParams.set('application_name', `bench_reads_${key}`);
  return named.toString();
};

async function startApi(key: Key, label: string, logLevel: string): Promise<Target> {
  const server = await startServer(
    { DATABASE_URL: urlOf(key), WEB_CONCURRENCY: '1', LOG_LEVEL: logLevel },
    { stdoutFile: path.join(logDir, `${key}.log`) },
  );
  return {
    key,
    label,
    url: `${server.url}/api/organization/${districtId}?credits=true`,
    headers: { authorization: `Bearer ${ownerToken}` },
    pids: server.pids,
    stop: () => server.stop(),
  };
}

async function startMinimal(): Promise<Target> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./support/minimal-read-server.ts', import.meta.url).pathname],
    {
      env: { ...process.env, DATABASE_URL: urlOf('minimal'), PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    void exited.then(() => reject(new Error('the minimal read server ended before it listened')));
  });
  return {
    key: 'minimal',
    label: 'minimal Fastify + pg read',
    url: `http://127.0.0.1:${port}/organization/${districtId}`,
    headers: {},
    pids: () => (child.pid ? [child.pid] : []),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** CPU so far of a target's server processes and of its PostgreSQL backends, ms. */
async function cpuOf(target: Target): Promise<{ server: number; pg: Map<number, number> }> {
  const { rows } = await activity.query<{ pid: number }>(
    'select pid from pg_stat_activity where application_name = $1',
    [`bench_reads_${target.key}`],
  );
  return {
    server: target.pids().reduce((sum, pid) => sum + (cpuMs(pid) ?? 0), 0),
    pg: new Map(rows.map((r) => [r.pid, cpuMs(r.pid) ?? 0])),
  };
}

// --- figures -------------------------------------------------------------------------------------------------
interface Tally {
  calls: number;
  seconds: number;
  errors: number;
  serverCpuMs: number;
  pgCpuMs: number;
  p50s: number[];
  p99s: number[];
  /** Calls a second of each cycle. */
  rates: number[];
  costs?: Costs;
  costCalls?: number;
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;
const fixed = (value: number | null | undefined, digits: number) =>
  value === null || value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits);
const COLUMNS: [string, number][] = [
  ['scenario', 32],
  ['calls/s', 8],
  ['p50 ms', 7],
  ['p99 ms', 7],
  ['errors', 6],
  ['srv CPU', 8],
  ['PG CPU', 7],
  ['commits', 7],
  ['tup r', 6],
  ['WAL B', 6],
];
const line = (cells: string[]) =>
  cells
    .map((cell, i) => (i === 0 ? cell.padEnd(COLUMNS[0]?.[1] ?? 0) : cell.padStart(COLUMNS[i]?.[1] ?? 0)))
    .join(' ');

/** The answer is checked once: a 200 with the credits, else the bench stops (a fast wrong answer is no figure). */
async function probe(target: Target) {
  const answer = await fetch(target.url, { headers: target.headers });
  const body = (await answer.json()) as { credits?: unknown; shared_credits?: unknown };
  const ok = target.key === 'minimal' ? body.shared_credits !== undefined : body.credits !== undefined;
  if (answer.status !== 200 || !ok)
    throw new Error(`${target.label}: ${answer.status} ${JSON.stringify(body)}`);
}

const options = { total: Number.POSITIVE_INFINITY, concurrency: CLIENTS };
console.log(
  `reads bench: PostgreSQL ${shownUrl}, GET /api/organization/{district}?credits=true as its owner (${SCHOOLS} schools × ${TEACHERS_PER_SCHOOL} teachers), 1 server process, ${CLIENTS} clients; the servers in turn, ${CYCLES} cycles of ${SLICE_SECONDS} s each, after ${WARM_UP_SECONDS} s of warm-up`,
);
if (!sampler.seesPostgresCpu) console.log('(PostgreSQL runs elsewhere: its CPU is not measured)');
const targets: Target[] = [];
const tallies = new Map<Key, Tally>();
try {
  targets.push(await startMinimal());
  bench.onCleanUp(() => (targets[0] as Target).stop());
  targets.push(await startApi('api', 'API read (access log: info)', 'info'));
  bench.onCleanUp(() => (targets[1] as Target).stop());
  targets.push(await startApi('api-nolog', 'API read (no access log: warn)', 'warn'));
  bench.onCleanUp(() => (targets[2] as Target).stop());
  for (const target of targets) {
    await probe(target);
    await load(target.url, target.headers, { ...options, maxSeconds: WARM_UP_SECONDS });
    tallies.set(target.key, {
      calls: 0,
      seconds: 0,
      errors: 0,
      serverCpuMs: 0,
      pgCpuMs: 0,
      p50s: [],
      p99s: [],
      rates: [],
    });
  }

  for (let cycle = 0; cycle < CYCLES; cycle++) {
    // Each cycle starts with the next one: none always comes first.
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(cycle + i) % targets.length] as Target;
      const tally = tallies.get(target.key) as Tally;
      const before = await cpuOf(target);
      const result = await load(target.url, target.headers, { ...options, maxSeconds: SLICE_SECONDS });
      const after = await cpuOf(target);
      tally.calls += result.count;
      tally.seconds += result.count / result.perSecond;
      tally.errors += result.errors;
      tally.serverCpuMs += after.server - before.server;
      for (const [pid, ms] of after.pg) tally.pgCpuMs += ms - (before.pg.get(pid) ?? 0);
      tally.p50s.push(result.p50);
      tally.p99s.push(result.p99);
      tally.rates.push(result.perSecond);
    }
  }

  // Commits, tuples and WAL: one server at a time, stopped before the statistics are read. First every backend
  // reports what the cycles left (an idle backend does within 10 s), so that none of it lands in another's.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  for (const target of targets) {
    const measurement = await sampler.start();
    const result = await load(target.url, target.headers, { ...options, maxSeconds: COST_SECONDS });
    await target.stop();
    const tally = tallies.get(target.key) as Tally;
    tally.costs = await measurement.stop();
    tally.costCalls = result.count;
  }

  console.log(line(COLUMNS.map(([title]) => title)));
  console.log(
    `${''.padEnd(COLUMNS[0]?.[1] ?? 0)} (per call: CPU in ms, commits, tuples read, WAL bytes ${sampler.seesDatabaseWal ? 'of this database' : 'of the whole cluster'})`,
  );
  const walOf = (c: Costs) => c.databaseWalBytes ?? c.walBytes;
  for (const target of targets) {
    const t = tallies.get(target.key) as Tally;
    const costCalls = Math.max(1, t.costCalls ?? 0);
    console.log(
      line([
        target.label,
        (t.calls / t.seconds).toFixed(0),
        median(t.p50s).toFixed(1),
        median(t.p99s).toFixed(1),
        String(t.errors),
        fixed(t.serverCpuMs / t.calls, 3),
        fixed(sampler.seesPostgresCpu ? t.pgCpuMs / t.calls : null, 3),
        fixed(t.costs ? t.costs.commits / costCalls : null, 2),
        fixed(t.costs ? t.costs.tuplesRead / costCalls : null, 1),
        fixed(t.costs ? walOf(t.costs) / costCalls : null, 1),
      ]),
    );
  }

  const tally = (key: Key) => tallies.get(key) as Tally;
  const rate = (key: Key) => tally(key).calls / tally(key).seconds;
  const cpu = (key: Key) => (tally(key).serverCpuMs + tally(key).pgCpuMs) / tally(key).calls;
  const ratio = rate('api') / rate('minimal');
  const perCycle = tally('api').rates.map((r, i) => r / (tally('minimal').rates[i] ?? r));
  const logCpuUs =
    (tally('api').serverCpuMs / tally('api').calls -
      tally('api-nolog').serverCpuMs / tally('api-nolog').calls) *
    1000;
  console.log('\ntarget (issue 32): API read ≥ 0.45 of the minimal Fastify + pg read, one server process');
  console.log(
    `  API / minimal: ${ratio.toFixed(2)} (${ratio >= TARGET ? 'met' : 'MISSED'}; by cycle ${perCycle.map((r) => r.toFixed(2)).join(' ')}); without the access log ${(rate('api-nolog') / rate('minimal')).toFixed(2)}`,
  );
  console.log(
    `  server + PostgreSQL CPU a call: minimal ${(cpu('minimal') * 1000).toFixed(0)} µs, API ${(cpu('api') * 1000).toFixed(0)} µs (minimal / API ${(cpu('minimal') / cpu('api')).toFixed(2)}); the access log: ${logCpuUs.toFixed(0)} µs of server CPU a call`,
  );
  const round = (value: number | null, digits: number) =>
    value === null || Number.isNaN(value) ? null : Math.round(value * 10 ** digits) / 10 ** digits;
  console.log(
    JSON.stringify({
      bench: 'reads',
      at: new Date().toISOString(),
      settings: {
        sliceSeconds: SLICE_SECONDS,
        cycles: CYCLES,
        warmUpSeconds: WARM_UP_SECONDS,
        clients: CLIENTS,
      },
      scenarios: targets.map(({ key }) => {
        const t = tally(key);
        const costCalls = Math.max(1, t.costCalls ?? 0);
        return {
          scenario: key,
          callsPerSecond: Math.round(t.calls / t.seconds),
          p50Ms: round(median(t.p50s), 2),
          p99Ms: round(median(t.p99s), 2),
          errors: t.errors,
          serverCpuMsPerCall: round(t.serverCpuMs / t.calls, 3),
          pgCpuMsPerCall: sampler.seesPostgresCpu ? round(t.pgCpuMs / t.calls, 3) : null,
          commitsPerCall: t.costs ? round(t.costs.commits / costCalls, 3) : null,
          tuplesReadPerCall: t.costs ? round(t.costs.tuplesRead / costCalls, 1) : null,
          walBytesPerCall: t.costs ? round(walOf(t.costs) / costCalls, 1) : null,
        };
      }),
      apiOverMinimal: round(ratio, 3),
      apiOverMinimalByCycle: perCycle.map((r) => round(r, 3)),
      cpuMinimalOverApi: round(cpu('minimal') / cpu('api'), 3),
      accessLogServerCpuUsPerCall: round(logCpuUs, 1),
    }),
  );
} catch (error) {
  console.error(`\nreads bench failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
