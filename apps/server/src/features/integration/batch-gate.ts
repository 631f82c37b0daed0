/**
 * Batch consumption calls of one process, at most `inFlight` transactions at once; the others wait here, in
 * arrival order, holding no connection and no lock (decision 016, "Batches wait in the process"). Batches of
 * a network draw on the same pools, so beyond a few at once they only queue inside PostgreSQL, each waiting
 * backend woken at every commit of the rows it waits for and checked for deadlocks after a second.
 */
export class BatchGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly inFlight: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.inFlight) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes to the next caller as it is: `running` counts it still.
      if (next) next();
      else this.running--;
    }
  }
}
