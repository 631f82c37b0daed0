import type { LoadResult } from './load';
import type { Costs } from './pg-costs';

/** One measured scenario: its load and what it cost (pg-costs.ts). */
export interface CostRow {
  label: string;
  key: string;
  result: LoadResult;
  costs: Costs;
  /** Items a second, for a call that carries several (a batch of consumptions). */
  itemsPerSecond?: number;
  firstError?: string;
}

/** This database's WAL when pg_walinspect tells it apart, else the whole cluster's. */
export const walOf = (c: Costs) => c.databaseWalBytes ?? c.walBytes;
/** A figure of the whole run, per call. */
export const perCall = (row: CostRow, value: number | null) =>
  value === null ? null : value / Math.max(1, row.result.count);
const fixed = (value: number | null | undefined, digits: number) =>
  value === null || value === undefined ? 'n/a' : value.toFixed(digits);

/**
 * The benches' table of calls and their costs: calls/s, latency, and per call the server's and PostgreSQL's
 * CPU, commits, tuples read and written, WAL bytes, and the share of busy backends waiting on a lock.
 */
export class CostTable {
  private readonly columns: [string, number][];

  constructor(
    labelWidth: number,
    private readonly withItems = false,
  ) {
    this.columns = [
      ['scenario', labelWidth],
      ['calls/s', 8],
      ...(withItems ? ([['items/s', 8]] as [string, number][]) : []),
      ['p50 ms', 7],
      ['p99 ms', 7],
      ['errors', 6],
      ['srv CPU', 8],
      ['PG CPU', 7],
      ['commits', 7],
      ['tup r', 7],
      ['tup w', 6],
      ['WAL B', 7],
      ['lock %', 6],
    ];
  }

  private line(cells: string[]) {
    return cells
      .map((cell, i) =>
        i === 0 ? cell.padEnd(this.columns[0]?.[1] ?? 0) : cell.padStart(this.columns[i]?.[1] ?? 0),
      )
      .join(' ');
  }

  header(walOfThisDatabase: boolean): string {
    return `${this.line(this.columns.map(([title]) => title))}\n${''.padEnd(this.columns[0]?.[1] ?? 0)} (per call: CPU in ms, commits, tuples read and written, WAL bytes ${walOfThisDatabase ? 'of this database' : 'of the whole cluster'}; lock %: busy backends waiting on a lock)`;
  }

  /** The row, then what the busy backends waited on, the tables read most and the first error. */
  row(row: CostRow): string {
    const { result: r, costs: c } = row;
    const lines = [
      this.line([
        row.label,
        r.perSecond.toFixed(0),
        ...(this.withItems ? [row.itemsPerSecond === undefined ? '' : row.itemsPerSecond.toFixed(0)] : []),
        r.p50.toFixed(1),
        r.p99.toFixed(1),
        String(r.errors),
        fixed(perCall(row, c.serverCpuMs), 2),
        fixed(perCall(row, c.pgCpuMs), 2),
        fixed(perCall(row, c.commits), 2),
        fixed(perCall(row, c.tuplesRead), 1),
        fixed(perCall(row, c.tuplesWritten), 1),
        fixed(perCall(row, walOf(c)), 0),
        (c.lockWaitShare * 100).toFixed(0),
      ]),
    ];
    const waits = c.waitEvents
      .slice(0, 4)
      .map((w) => `${w.event} ${(w.share * 100).toFixed(0)} %`)
      .join(', ');
    lines.push(`${''.padEnd(4)}busy backends (${c.activeSamples} samples): ${waits || 'none seen'}`);
    const calls = Math.max(1, r.count);
    const tables = c.tables
      .slice(0, 5)
      .map(
        (t) =>
          `${t.table} ${(t.rowsRead / calls).toFixed(0)} (${(t.seqScans / calls).toFixed(1)} seq scans)${t.rowsWritten ? ` w ${(t.rowsWritten / calls).toFixed(1)}` : ''}`,
      )
      .join(', ');
    if (tables) lines.push(`${''.padEnd(4)}rows read a call, by table: ${tables}`);
    if (row.firstError) lines.push(`${''.padEnd(4)}first error: ${row.firstError.slice(0, 300)}`);
    return lines.join('\n');
  }
}
