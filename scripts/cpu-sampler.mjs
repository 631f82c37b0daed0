// What processes cost while they run, read from Linux's /proc once a second: the CPU time of every process
// seen below a root (a test stage's vitest and all it started: workers, the e2e server, Chromium) or named
// `postgres` (the PostgreSQL server on this machine). Elsewhere (no /proc) every figure is undefined.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK)

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // ppid is the stat file's field 4, utime and stime its fields 14 and 15 (here counted from field 3).
    return { pid, name, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

function allProcesses() {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map((entry) => stat(Number(entry)))
      .filter(Boolean);
  } catch {
    return undefined;
  }
}

/**
 * Samples until stopped. A process that lives less than a second between two samples is missed, and the last
 * second of one that ends is: the figures are a floor, close enough to say where the time goes.
 */
export function startCpuSampler(intervalMs = 1_000) {
  const roots = new Map(); // label → root pid
  const seen = new Map(); // label → Map(pid → ticks), the latest reading of each process
  const available = allProcesses() !== undefined;

  const sample = () => {
    const processes = allProcesses();
    if (!processes) return;
    const children = new Map();
    for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
    const byPid = new Map(processes.map((p) => [p.pid, p]));
    const record = (label, p) => {
      if (!seen.has(label)) seen.set(label, new Map());
      const known = seen.get(label);
      known.set(p.pid, Math.max(known.get(p.pid) ?? 0, p.ticks));
    };
    for (const [label, rootPid] of roots) {
      const stack = byPid.has(rootPid) ? [byPid.get(rootPid)] : [];
      while (stack.length > 0) {
        const p = stack.pop();
        record(label, p);
        stack.push(...(children.get(p.pid) ?? []));
      }
    }
    for (const p of processes) if (p.name === 'postgres') record('postgres', p);
  };

  const baseline = new Map();
  if (available) {
    // PostgreSQL's processes that were busy before the run: only what they spend from now on counts.
    for (const p of allProcesses()) if (p.name === 'postgres') baseline.set(p.pid, p.ticks);
  }
  const timer = setInterval(sample, intervalMs);
  timer.unref();

  return {
    available,
    /** Counts `pid` and everything below it under `label`. */
    watch(label, pid) {
      roots.set(label, pid);
      sample();
    },
    /** Takes one last sample (call before the root exits when possible). */
    sample,
    /** CPU seconds under `label` so far, or undefined without /proc. */
    cpuSeconds(label) {
      if (!available) return undefined;
      let ticks = 0;
      for (const [pid, value] of seen.get(label) ?? [])
        ticks += value - (label === 'postgres' ? (baseline.get(pid) ?? 0) : 0);
      return ticks / TICKS_PER_SECOND;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
