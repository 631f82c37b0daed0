/**
 * Batch consumption calls of one process, at most `inFlight` transactions at once; the others wait here
 * holding no connection and no lock (decision 016, "Batches wait in the process"). Batches of a network draw
 * on the same pools, so beyond a few at once they only queue inside PostgreSQL, each waiting backend woken at
 * every commit of the rows it waits for and checked for deadlocks after a second. Integration keys take turns
 * for a free slot (each key's batches in arrival order), so one network sending many batches does not hold
 * up another's.
 */
export class BatchGate {
  private running = 0;
  /** Waiting calls by integration key, each key's in arrival order; keys in the order of their turns. */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly inFlight: number) {}

  async run<T>(keyId: string, work: () => Promise<T>): Promise<T> {
    if (this.running >= this.inFlight) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(keyId);
        if (queue) queue.push(resolve);
        else this.waiting.set(keyId, [resolve]);
      });
    } else this.running++;
    try {
      return await work();
    } finally {
      this.passOn(keyId);
    }
  }

  /**
   * The slot of a call that ended goes to the first call of the key waiting longest for its turn (`running`
   * counts it still), or is freed. The key of the call that ended has just had its turn: it goes to the back.
   */
  private passOn(served: string) {
    const own = this.waiting.get(served);
    if (own) {
      this.waiting.delete(served);
      this.waiting.set(served, own);
    }
    for (const [keyId, queue] of this.waiting) {
      this.waiting.delete(keyId);
      const next = queue.shift();
      if (queue.length > 0) this.waiting.set(keyId, queue);
      if (next) {
        next();
        return;
      }
    }
    this.running--;
  }
}
