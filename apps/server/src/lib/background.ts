import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts and does not wait for, so that its answer takes the same time whatever the work
 * finds (the calls that answer alike for every address: the time must not tell either). A failure is
 * logged, never shown to the caller. The app waits for what is still running when it closes; tests wait
 * with `settle()` before reading what the work wrote.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(label: string, work: () => Promise<unknown>): void {
    const task: Promise<void> = work()
      .then(() => undefined)
      .catch((err: unknown) => this.log.error({ err }, `${label} failed`))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
