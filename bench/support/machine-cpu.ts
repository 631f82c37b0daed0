import { readFileSync } from 'node:fs';

/** The machine's CPU time so far, all cores (/proc/stat, in clock ticks): busy and in all. */
export interface CpuTicks {
  busy: number;
  total: number;
}

/** Undefined where there is no /proc/stat. */
export function machineCpu(): CpuTicks | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal …
    const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/**
 * How busy the whole machine was between two readings, as a share of all its cores (0–1): on a shared
 * machine, what the other work left to the one measured.
 */
export function busyShare(from: CpuTicks | undefined, to: CpuTicks | undefined): number {
  if (!from || !to || to.total === from.total) return Number.NaN;
  return (to.busy - from.busy) / (to.total - from.total);
}
