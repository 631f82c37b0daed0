import type { Tx } from '../db/client';
import { takeRateLimitBlock } from './rate-limit';

/** What this process holds of one key's window. */
interface Held {
  /** Attempts left of the block taken. */
  permits: number;
  /** When the window ends (`Date.now()` time), from what the database said was left of it. */
  endsAt: number;
  /** The window was full when this process asked: refused here until it ends. */
  full: boolean;
}

/** Above this many keys held, the ones whose window has ended are forgotten. */
const SWEEP_ABOVE = 10_000;

/**
 * A fixed-window limit counted across processes in blocks (CONTRACT §9): this process takes `block` attempts at
 * once from the key's `rate_limits` row and spends them in memory, so the row is written once a block per
 * process, not on every call. Once the window is full, this process refuses the key until the window ends
 * without asking the database again; the next call after that takes a block of the new window.
 *
 * Bound: a block is granted while the window's count is below the limit, so at most `limit + block - 1`
 * attempts are let through in a window; attempts left unspent in a process when the window ends are lost, so
 * a key whose calls move between processes may be refused up to `block - 1` attempts early per other process.
 */
export class BlockRateLimiter {
  private readonly held = new Map<string, Held>();
  /** One request to the database per key at a time: the others wait for its block. */
  private readonly taking = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Tx,
    readonly windowSeconds: number,
    readonly limit: number,
    readonly block: number,
  ) {}

  /** Counts one attempt of `key`: null when it may go on, else the seconds until the window ends (≥ 1). */
  async take(key: string): Promise<number | null> {
    for (;;) {
      const held = this.held.get(key);
      const now = Date.now();
      if (held && now < held.endsAt) {
        if (held.permits > 0) {
          held.permits--;
          return null;
        }
        if (held.full) {
          return Math.min(this.windowSeconds, Math.max(1, Math.ceil((held.endsAt - now) / 1000)));
        }
      }
      await (this.taking.get(key) ?? this.takeBlock(key));
    }
  }

  private takeBlock(key: string): Promise<void> {
    const taking = (async () => {
      const { granted, msLeft } = await takeRateLimitBlock(
        this.db,
        key,
        this.windowSeconds,
        this.limit,
        this.block,
      );
      if (this.held.size > SWEEP_ABOVE) this.forgetEnded();
      this.held.set(key, {
        permits: granted ? this.block : 0,
        endsAt: Date.now() + Math.max(0, msLeft),
        full: !granted,
      });
    })().finally(() => this.taking.delete(key));
    this.taking.set(key, taking);
    return taking;
  }

  private forgetEnded() {
    const now = Date.now();
    for (const [key, held] of this.held) if (held.endsAt <= now) this.held.delete(key);
  }
}
