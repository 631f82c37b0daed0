import { MAX_CONSUME_BATCH_ITEMS } from '@allot/domain/integration';
import type { Db, Tx } from '../../db/client';
import { WRITE_ATTEMPTS, writeTransaction } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import type { IntegrationCaller } from '../../http/authenticate';
import { errorAnswer } from '../../http/error-handler';
import {
  type Answer,
  type IdempotencyRequest,
  KEY_VANISHED_MESSAGE,
  keepAnswers,
  keptAnswers,
} from '../../http/idempotency';
import { takeOncePerKey } from '../../lib/take-once-per-key';
import { type ConsumeItem, type ConsumeOutcome, consumeEach } from './consume-credits';

/** Shared transactions running at once on one machine, unless CONSUME_TRANSACTIONS says (decision 016). */
export const DEFAULT_CONSUME_TRANSACTIONS = 2;

/**
 * Unless CONSUME_TRANSACTIONS says: a process's share of the default's transactions among the machine's
 * server processes (WEB_CONCURRENCY), at least one. Fewer transactions each take more calls: with 2 processes,
 * 1 each served about twice the calls of 4 each (decision 016).
 */
export function defaultConsumeTransactions(processes: number): number {
  return Math.max(1, Math.floor(DEFAULT_CONSUME_TRANSACTIONS / Math.max(processes, 1)));
}

/** A single consumption call waiting for its turn. */
interface Waiting {
  caller: IntegrationCaller;
  item: ConsumeItem;
  idempotency: IdempotencyRequest;
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
}

/** Other requests answered first under these items' keys: the transaction that posted them is rolled back. */
class KeysTaken extends Error {
  constructor(readonly taken: readonly number[]) {
    super('idempotency keys answered by other requests');
  }
}

/**
 * Single consumption calls of one process, made in shared transactions (decision 016, "Group commit"): a call
 * that arrives while `inFlight` transactions are running waits for the next one, which takes every call of
 * its key waiting by then (up to a batch's 100). Each call is still its own journal transaction, answer and
 * idempotency key, decided in arrival order as if made one after the other; only the lookup, the locks, the
 * posting statement and the commit are shared. A call that arrives when a transaction is free starts one at
 * once: under light load nothing waits.
 */
export class ConsumeQueue {
  /** Waiting calls by integration key, in arrival order. */
  private readonly waiting = new Map<string, Waiting[]>();
  private running = 0;

  constructor(
    private readonly db: Db,
    /** Shared transactions running at once in this process. */
    private readonly inFlight: number,
  ) {}

  consume(caller: IntegrationCaller, item: ConsumeItem, idempotency: IdempotencyRequest): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(caller.keyId);
      const call = { caller, item, idempotency, resolve, reject };
      if (queue) queue.push(call);
      else this.waiting.set(caller.keyId, [call]);
      this.startWhileFree();
    });
  }

  private startWhileFree() {
    while (this.running < this.inFlight) {
      const batch = this.nextBatch();
      if (!batch) return;
      this.running++;
      void this.run(batch).finally(() => {
        this.running--;
        this.startWhileFree();
      });
    }
  }

  /**
   * The calls of the key waiting longest, up to a batch, each idempotency key once (a repeat sent before the
   * first was answered waits for the next transaction, and is then answered the first answer). Keys take
   * turns: the one served goes to the back.
   */
  private nextBatch(): Waiting[] | null {
    for (const [keyId, queue] of this.waiting) {
      this.waiting.delete(keyId);
      const { taken, left } = takeOncePerKey(queue, MAX_CONSUME_BATCH_ITEMS, (call) => call.idempotency.key);
      if (left.length > 0) this.waiting.set(keyId, left);
      return taken;
    }
    return null;
  }

  /**
   * One shared transaction: the consumptions, then every answer under its key. Keys another request answered
   * meanwhile roll the transaction back; those calls get that first answer and the others run again.
   */
  private async run(batch: readonly Waiting[]): Promise<void> {
    let pending = batch;
    for (let attempt = 1; pending.length > 0; attempt++) {
      try {
        const answers = await writeTransaction(this.db, (tx) => this.consumeAndKeep(tx, pending));
        pending.forEach((call, i) => {
          call.resolve(answers[i] as Answer);
        });
        return;
      } catch (error) {
        if (!(error instanceof KeysTaken)) {
          for (const call of pending) call.reject(error);
          return;
        }
        const taken = error.taken.map((i) => pending[i] as Waiting);
        const firsts = await keptAnswers(
          this.db,
          (taken[0] as Waiting).caller.keyId,
          taken.map((c) => c.idempotency),
        ).catch((lookup: unknown) => {
          for (const call of pending) call.reject(lookup);
          return null;
        });
        if (!firsts) return;
        const again = pending.filter((call) => !taken.includes(call));
        taken.forEach((call, i) => {
          const first = firsts[i];
          if (first instanceof AppError) call.reject(first);
          else if (first) call.resolve(first);
          else if (attempt >= WRITE_ATTEMPTS) call.reject(AppError.of('conflict', KEY_VANISHED_MESSAGE));
          // Expired and removed meanwhile: once more with the others.
          else again.push(call);
        });
        pending = again;
      }
    }
  }

  private async consumeAndKeep(tx: Tx, calls: readonly Waiting[]): Promise<Answer[]> {
    const caller = (calls[0] as Waiting).caller;
    const outcomes = await consumeEach(
      tx,
      caller,
      calls.map((c) => c.item),
    );
    const answers = outcomes.map(answerOf);
    const kept = await keepAnswers(
      tx,
      calls.map((call, i) => ({
        callerId: caller.keyId,
        idempotency: call.idempotency,
        answer: answers[i] as Answer,
      })),
    );
    const taken = kept.flatMap((isKept, i) => (isKept ? [] : [i]));
    if (taken.length > 0) throw new KeysTaken(taken);
    return answers;
  }
}

function answerOf(outcome: ConsumeOutcome): Answer {
  return outcome.ok
    ? { status: 200, body: outcome.answer, replayed: false }
    : { ...errorAnswer(outcome.error), replayed: false };
}
