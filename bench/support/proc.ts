import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// What a process has cost, read from Linux's /proc: the bench's server processes and PostgreSQL's backends
// (both run on this machine). Elsewhere (no /proc, or PostgreSQL on another host) the figures are missing.

let ticks: number | undefined;
/** Clock ticks a second, the unit of utime and stime in /proc/<pid>/stat. */
function ticksPerSecond(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** The fields of /proc/<pid>/stat after the command's name (which may hold spaces): [state, ppid, …]. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The CPU time (user and system) a process has used so far, in ms; undefined when it is gone or not visible. */
export function cpuMs(pid: number): number | undefined {
  const fields = statFields(pid);
  // utime and stime are the stat file's fields 14 and 15: here at 11 and 12 (counted from the state, field 3).
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond() : undefined;
}

/** The command's name (/proc/<pid>/comm), or undefined. */
export function processName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** `pid` and every process below it (e.g. a server's cluster workers), found by their parent in /proc. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [pid];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = Number(statFields(Number(entry))?.[1]);
    if (!ppid) continue;
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const visit = (p: number) => {
    tree.push(p);
    for (const child of parents.get(p) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}
