import pg from 'pg';
import { databaseUrl } from './database-url';
import { cpuMs, processName } from './proc';

/** What PostgreSQL (and the server processes) spent while a load ran. */
export interface Costs {
  seconds: number;
  /** CPU of the server processes given to `start` (utime + stime from /proc), ms; null without them. */
  serverCpuMs: number | null;
  /** CPU of the database's backends (from /proc), ms; null when PostgreSQL's processes are not visible here. */
  pgCpuMs: number | null;
  /** CPU of PostgreSQL's background processes (checkpointer, WAL writer, …: the whole cluster's), ms. */
  pgBackgroundCpuMs: number | null;
  /** From pg_stat_database, for the database only. */
  commits: number;
  rollbacks: number;
  /** tup_returned + tup_fetched. */
  tuplesRead: number;
  /** tup_inserted + tup_updated + tup_deleted. */
  tuplesWritten: number;
  /** pg_current_wal_lsn() moved by: the whole cluster's WAL, other databases' included. */
  walBytes: number;
  /**
   * The WAL records of this database's relations and its transactions' commits (pg_walinspect), bytes; null
   * when the extension is not there or the WAL was already recycled.
   */
  databaseWalBytes: number | null;
  /** Transactions the other databases committed meanwhile: how much of `walBytes` may be theirs. */
  otherCommits: number;
  /** Samples of the database's active client backends (pg_stat_activity, every `intervalMs`). */
  activeSamples: number;
  /** Of those, the share waiting on a lock (wait_event_type 'Lock'), 0 to 1. */
  lockWaitShare: number;
  /** What the active backends were doing, most frequent first: 'Lock:transactionid', 'running' (no wait), … */
  waitEvents: { event: string; share: number }[];
  /** The database's tables by rows read (seq_tup_read + idx_tup_fetch), most first. */
  tables: { table: string; seqScans: number; rowsRead: number; rowsWritten: number }[];
}

interface TableCounters {
  seqScans: number;
  rowsRead: number;
  rowsWritten: number;
}

export interface CostMeasurement {
  /** Ends the sampling and answers the costs since `start`. */
  stop(): Promise<Costs>;
}

interface Counters {
  commits: number;
  rollbacks: number;
  tuplesRead: number;
  tuplesWritten: number;
  /** xact_commit of every other database, by its oid. */
  others: Map<number, number>;
  lsn: string;
}

/** Over PostgreSQL's 10 s wait of an idle backend's statistics (see `PostgresCostSampler`). */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 11_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Measures what a load costs PostgreSQL in one database: the cumulative statistics of pg_stat_database, the
 * WAL position, the CPU of the database's backends (followed through pg_stat_activity and read from /proc),
 * and the lock waits of its busy backends, sampled every `intervalMs`, and its share of the WAL (pg_walinspect,
 * when PostgreSQL has it). Its sampling connection is to the `postgres` database, so that its statements count
 * in none of the figures of the measured one; a second one, in the measured database, only reads the WAL
 * once the figures are taken.
 *
 * A backend sends its statistics when it goes idle, at most once a second; one that sent them less than a second
 * before going idle sends them 10 s later (PostgreSQL 15's PGSTAT_MIN_INTERVAL and PGSTAT_IDLE_INTERVAL), so
 * the last second of a load can land in the next measurement. `start` and `stop` wait `settleMs` first (11 s;
 * BENCH_SETTLE_MS sets it) so that a load's figures land in its own measurement (the loads must have ended).
 */
export class PostgresCostSampler {
  private constructor(
    private readonly client: pg.Client,
    /** A connection to the measured database itself: its tables' statistics, its WAL with pg_walinspect. */
    private readonly inside: { client: pg.Client; pid: number; oid: number; walinspect: boolean },
    private readonly database: string,
    private readonly procVisible: boolean,
    private readonly options: { intervalMs: number; settleMs: number },
  ) {}

  static async open(
    url: string,
    options: { intervalMs?: number; settleMs?: number } = {},
  ): Promise<PostgresCostSampler> {
    const database = decodeURIComponent(new URL(url).pathname.slice(1));
    const client = new pg.Client({ connectionString: databaseUrl(url, 'postgres') });
    await client.connect();
    // PostgreSQL's processes are visible when this connection's backend is a `postgres` process here.
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const procVisible = processName(rows[0]?.pid ?? 0) === 'postgres';
    const insideClient = new pg.Client({ connectionString: url });
    await insideClient.connect();
    const found = await insideClient.query<{ pid: number; oid: number }>(
      'select pg_backend_pid() as pid, oid::int as oid from pg_database where datname = current_database()',
    );
    // pg_walinspect (PostgreSQL 15, contrib) in the measured database: its WAL told apart from the others'.
    const walinspect = await insideClient.query('create extension if not exists pg_walinspect').then(
      () => true,
      () => false,
    );
    const inside = {
      client: insideClient,
      pid: found.rows[0]?.pid ?? 0,
      oid: found.rows[0]?.oid ?? 0,
      walinspect,
    };
    return new PostgresCostSampler(client, inside, database, procVisible, {
      intervalMs: options.intervalMs ?? 100,
      settleMs: options.settleMs ?? SETTLE_MS,
    });
  }

  /** Whether the database's own WAL is told apart (pg_walinspect); else only the cluster's is known. */
  get seesDatabaseWal(): boolean {
    return this.inside.walinspect;
  }

  /** Whether the CPU of PostgreSQL's processes can be read (/proc, same machine). */
  get seesPostgresCpu(): boolean {
    return this.procVisible;
  }

  async close(): Promise<void> {
    await this.client.end();
    await this.inside.client.end();
  }

  /** pg_stat_user_tables of the measured database, by table. */
  private async tableCounters(): Promise<Map<string, TableCounters>> {
    const { rows } = await this.inside.client.query<{ relname: string; s: string; r: string; w: string }>(
      `select relname, seq_scan::text as s, (seq_tup_read + coalesce(idx_tup_fetch, 0))::text as r,
         (n_tup_ins + n_tup_upd + n_tup_del)::text as w
       from pg_stat_user_tables`,
    );
    return new Map(
      rows.map((r) => [
        r.relname,
        { seqScans: Number(r.s), rowsRead: Number(r.r), rowsWritten: Number(r.w) },
      ]),
    );
  }

  /** The bytes of WAL between two positions that are this database's (see `Costs.databaseWalBytes`). */
  private async databaseWal(from: string, to: string): Promise<number | null> {
    if (!this.inside.walinspect) return null;
    try {
      const { rows } = await this.inside.client.query<{ bytes: string }>(
        `with r as (
           select xid, record_length, block_ref ~ ('rel [0-9]+/' || $3 || '/') as here
           from pg_get_wal_records_info($1, least($2::pg_lsn, pg_current_wal_flush_lsn()))),
         xids as (select distinct xid from r where here and xid <> '0')
         select coalesce(sum(record_length), 0)::text as bytes from r
         where here or (xid <> '0' and xid in (select xid from xids))`,
        [from, to, String(this.inside.oid)],
      );
      return Number(rows[0]?.bytes ?? 0);
    } catch {
      return null;
    }
  }

  private async counters(): Promise<Counters> {
    const { rows } = await this.client.query<{
      commits: string;
      rollbacks: string;
      read: string;
      written: string;
      other: string;
      lsn: string;
    }>(
      `select xact_commit::text as commits, xact_rollback::text as rollbacks,
         (tup_returned + tup_fetched)::text as read,
         (tup_inserted + tup_updated + tup_deleted)::text as written,
         (select coalesce(json_object_agg(datid, xact_commit), '{}') from pg_stat_database
           where datname is distinct from $1)::text as other,
         pg_current_wal_lsn()::text as lsn
       from pg_stat_database where datname = $1`,
      [this.database],
    );
    const row = rows[0];
    if (!row) throw new Error(`pg_stat_database has no row for ${this.database}`);
    return {
      commits: Number(row.commits),
      rollbacks: Number(row.rollbacks),
      tuplesRead: Number(row.read),
      tuplesWritten: Number(row.written),
      others: new Map(
        Object.entries(JSON.parse(row.other) as Record<string, number>).map(([k, v]) => [Number(k), v]),
      ),
      lsn: row.lsn,
    };
  }

  /** Starts measuring; `serverPids` are the processes whose CPU counts as the server's. */
  async start(serverPids: readonly number[] = []): Promise<CostMeasurement> {
    await sleep(this.options.settleMs);
    const { client, database } = this;
    // CPU per process: the first reading and the last one seen. A backend first seen after the start counts
    // from 0 (it was born in the measurement); one that ends between two samples loses under `intervalMs`.
    const backends = new Map<number, { first: number; last: number }>();
    const background = new Map<number, { first: number; last: number }>();
    const follow = (into: typeof backends, pid: number, initial: boolean) => {
      const now = cpuMs(pid);
      if (now === undefined) return;
      const seen = into.get(pid);
      if (seen) seen.last = now;
      else into.set(pid, { first: initial ? now : 0, last: now });
    };
    const waits = new Map<string, number>();
    let active = 0;
    let locked = 0;
    const sample = async (initial: boolean) => {
      const { rows } = await client.query<{
        pid: number;
        datname: string | null;
        backend_type: string;
        state: string | null;
        wait_event_type: string | null;
        wait_event: string | null;
      }>(
        `select pid, datname, backend_type, state, wait_event_type, wait_event
         from pg_stat_activity where pid <> pg_backend_pid()`,
      );
      for (const r of rows) {
        if (this.procVisible) {
          if (r.datname === database && r.pid !== this.inside.pid) follow(backends, r.pid, initial);
          else if (r.datname === null && r.backend_type !== 'client backend')
            follow(background, r.pid, initial);
        }
        if (initial || r.datname !== database || r.backend_type !== 'client backend' || r.state !== 'active')
          continue;
        active++;
        if (r.wait_event_type === 'Lock') locked++;
        const event = r.wait_event_type ? `${r.wait_event_type}:${r.wait_event}` : 'running';
        waits.set(event, (waits.get(event) ?? 0) + 1);
      }
    };
    const serverStart = serverPids.map((pid) => cpuMs(pid) ?? 0);
    // Read in the measured database, so before its counters are (and after, at the end).
    const tablesBefore = await this.tableCounters();
    const before = await this.counters();
    await sample(true);
    const started = performance.now();
    let stopped = false;
    const sampling = (async () => {
      while (!stopped) {
        const t0 = performance.now();
        await sample(false);
        await sleep(Math.max(0, this.options.intervalMs - (performance.now() - t0)));
      }
    })();

    return {
      stop: async () => {
        const seconds = (performance.now() - started) / 1000;
        stopped = true;
        await sampling;
        await sleep(this.options.settleMs);
        // The last readings: of the processes still there.
        for (const [pid, seen] of [...backends, ...background]) seen.last = cpuMs(pid) ?? seen.last;
        const serverCpuMs = serverPids.length
          ? serverPids.reduce(
              (sum, pid, i) => sum + ((cpuMs(pid) ?? serverStart[i] ?? 0) - (serverStart[i] ?? 0)),
              0,
            )
          : null;
        const after = await this.counters();
        const tablesAfter = await this.tableCounters();
        const { rows } = await client.query<{ bytes: string }>(
          'select pg_wal_lsn_diff($1, $2)::text as bytes',
          [after.lsn, before.lsn],
        );
        const spent = (m: typeof backends) => [...m.values()].reduce((sum, s) => sum + s.last - s.first, 0);
        return {
          seconds,
          serverCpuMs,
          pgCpuMs: this.procVisible ? spent(backends) : null,
          pgBackgroundCpuMs: this.procVisible ? spent(background) : null,
          commits: after.commits - before.commits,
          rollbacks: after.rollbacks - before.rollbacks,
          tuplesRead: after.tuplesRead - before.tuplesRead,
          tuplesWritten: after.tuplesWritten - before.tuplesWritten,
          walBytes: Number(rows[0]?.bytes ?? 0),
          databaseWalBytes: await this.databaseWal(before.lsn, after.lsn),
          // A database created meanwhile counts whole; one dropped meanwhile is not seen.
          otherCommits: [...after.others].reduce(
            (sum, [oid, n]) => sum + n - (before.others.get(oid) ?? 0),
            0,
          ),
          activeSamples: active,
          lockWaitShare: active ? locked / active : 0,
          waitEvents: [...waits]
            .sort((a, b) => b[1] - a[1])
            .map(([event, n]) => ({ event, share: n / Math.max(1, active) })),
          tables: [...tablesAfter]
            .map(([table, a]) => {
              const b = tablesBefore.get(table) ?? { seqScans: 0, rowsRead: 0, rowsWritten: 0 };
              return {
                table,
                seqScans: a.seqScans - b.seqScans,
                rowsRead: a.rowsRead - b.rowsRead,
                rowsWritten: a.rowsWritten - b.rowsWritten,
              };
            })
            .filter((t) => t.rowsRead > 0 || t.rowsWritten > 0 || t.seqScans > 0)
            .sort((x, y) => y.rowsRead - x.rowsRead),
        };
      },
    };
  }
}
