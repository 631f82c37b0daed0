import { Agent } from 'node:http';
import { type LoadResult, send } from './load';

export interface RateResult extends LoadResult {
  /** The rate asked for, requests a second. */
  offered: number;
  /** Answers a second: the measured answers over the time from the first one's scheduled send to the last answer. */
  perSecond: number;
  /** The most requests waiting for their answers at once. */
  maxInFlight: number;
  /** Each measured request: when it was scheduled (ms after the first measured one) and its latency (ms). */
  samples: { at: number; ms: number }[];
}

/**
 * How many of `samples` took `thresholdMs` or more, and in how many distinct seconds of the schedule they
 * were sent: a few seconds holding them all is a stall (the machine, a checkpoint, a pause), not a cost paid
 * by every request.
 */
export function slowRequests(
  samples: readonly { at: number; ms: number }[],
  thresholdMs: number,
): { count: number; seconds: number } {
  const slow = samples.filter((sample) => sample.ms >= thresholdMs);
  return { count: slow.length, seconds: new Set(slow.map((sample) => Math.floor(sample.at / 1000))).size };
}

/**
 * Open loop: starts `operation` on a fixed schedule, `rate` a second (one every 1000 / rate ms) for
 * `warmUpSeconds` and then `seconds`, whether or not the earlier ones have answered. Each latency runs from the
 * request's **scheduled** time, so a request queued behind a slow one, or sent late because the load
 * generator's own event loop was busy, counts its wait. Only the requests scheduled after the warm-up are
 * measured. An operation that answers false or throws counts as an error.
 */
export async function measureAtRate(
  operation: () => Promise<boolean>,
  { rate, seconds, warmUpSeconds = 0 }: { rate: number; seconds: number; warmUpSeconds?: number },
): Promise<RateResult> {
  const interval = 1000 / rate;
  const skipped = Math.round(rate * warmUpSeconds);
  const total = skipped + Math.round(rate * seconds);
  const samples: { at: number; ms: number }[] = [];
  let errors = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let lastAnswer = 0;
  const started = performance.now();
  const measuredFrom = started + skipped * interval;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const scheduled = started + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const done = (ok: boolean) => {
      inFlight--;
      if (i < skipped) return;
      lastAnswer = performance.now();
      samples.push({ at: scheduled - measuredFrom, ms: lastAnswer - scheduled });
      if (!ok) errors++;
    };
    pending.push(operation().then(done, () => done(false)));
  }
  await Promise.all(pending);
  const latencies = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    offered: rate,
    count: latencies.length,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1] ?? 0,
    perSecond: latencies.length / ((lastAnswer - measuredFrom) / 1000),
    errors,
    maxInFlight,
    samples,
  };
}

/** `measureAtRate` of GETs of `url`; anything but a 200 is an error. Keep-alive, as many sockets as needed. */
export async function loadAtRate(
  url: string,
  headers: Record<string, string>,
  options: { rate: number; seconds: number; warmUpSeconds?: number },
): Promise<RateResult> {
  const agent = new Agent({ keepAlive: true });
  try {
    return await measureAtRate(async () => (await send(url, headers, agent)).status === 200, options);
  } finally {
    agent.destroy();
  }
}
