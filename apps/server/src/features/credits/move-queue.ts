import type { CreditMoveResponse } from '@allot/domain/credits';
import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { isDatabaseUnavailable } from '../../db/database-unavailable';
import type { FirstRead } from '../../db/first-read';
import { uuidsAny } from '../../db/json-params';
import { rows } from '../../db/rows';
import { CommitOutcomeUnknown, WRITE_ATTEMPTS, writeTransaction } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { errorAnswer } from '../../http/error-handler';
import {
  type Answer,
  type IdempotencyRequest,
  KEY_VANISHED_MESSAGE,
  keepAnswers,
  keptAnswers,
} from '../../http/idempotency';
import { takeOncePerKey } from '../../lib/take-once-per-key';
import { changeByAccount, postCreditTransactionsReporting } from './journal';
import { type Move, moveAnswer, reportedAccounts } from './move-answer';
import { auditMovesStatement } from './move-audit';

/** Moves posted in one shared transaction at most (as a batch of consumptions). */
const MAX_MOVES_A_TRANSACTION = 100;

/** A move whose lines its parties decide (not the balances): read and checked in the shared transaction. */
export type PlanMove = (tx: Tx, user: AuthUser) => Promise<Move>;

/** One move request waiting for its turn. */
export interface MoveRequest {
  /**
   * Who the request's Idempotency-Key belongs to, as known when it arrives (its bearer token): one key of one
   * caller once a transaction. (A key sent at once from two sessions of one person meets in the keys'
   * statement, which then fails, and each move runs alone.)
   */
  caller: string;
  /** The caller, once known (after `session` has settled, for a `sessionInQuery` route). */
  user: () => AuthUser;
  /** The caller's session still to be read, as the transaction's first statement; none when known. */
  session: FirstRead | undefined;
  plan: PlanMove;
  idempotency: IdempotencyRequest | null;
  /** The same move in a transaction of its own (the route's own path): under light load, and as a fallback. */
  alone: () => Promise<Answer>;
}

interface Waiting extends MoveRequest {
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
}

/** What became of one move of a shared transaction; `keep`: its answer is kept under its Idempotency-Key. */
type Outcome = { answer: Answer; keep: boolean } | { error: AppError; keep: boolean };

/** Other requests answered first under these moves' keys: the shared transaction is rolled back. */
class KeysTaken extends Error {
  constructor(readonly taken: readonly number[]) {
    super('idempotency keys answered by other requests');
  }
}

/**
 * Credit moves of one process in shared transactions (decision 006, "Shared transactions"), as single
 * consumptions are (decision 016): a move that arrives while `inFlight` transactions are running waits for the
 * next one, which takes every move waiting by then (up to 100). Each move is still its own journal
 * transaction, audit entries, answer and idempotency key, decided in arrival order as if made one after the
 * other: the sessions still to read in one statement sent with BEGIN; its parties read and checked for its
 * caller (a `401`, `403` or `404` is that move's answer, the others go on), then, under the locks of every
 * account the transaction moves (one statement, in id order, with the balances the answers report), refused if
 * an account would go below zero, else counted in; the moves counted in are posted in one call of the posting
 * function with their audit entries; the keys kept with their answers, refusals included, in one statement
 * (`keepAnswers`, across callers). Each move answers the balances it left. Only the locks, the posting
 * statement and the commit are shared. A move that arrives when a transaction is free runs alone, exactly as
 * without the queue (its session sent with BEGIN, its parties, the posting with its audit, COMMIT): under light
 * load nothing waits. A shared transaction that fails for any other reason than the database (a move the
 * database refuses) runs each of its moves alone.
 */
export class MoveQueue {
  private readonly waiting: Waiting[] = [];
  private running = 0;

  constructor(
    private readonly db: Db,
    /** Shared transactions running at once in this process. */
    private readonly inFlight: number,
  ) {}

  move(request: MoveRequest): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...request, resolve, reject });
      this.startWhileFree();
    });
  }

  private startWhileFree() {
    while (this.running < this.inFlight && this.waiting.length > 0) {
      const group = this.nextGroup();
      this.running++;
      void this.run(group)
        // What went wrong outside a transaction (reading a first answer): every move not answered yet gets it.
        .catch((error: unknown) => {
          for (const move of group) move.reject(error);
        })
        .finally(() => {
          this.running--;
          this.startWhileFree();
        });
    }
  }

  /** The moves waiting longest, up to a transaction's, each caller's Idempotency-Key once (a repeat waits). */
  private nextGroup(): Waiting[] {
    const { taken, left } = takeOncePerKey(this.waiting, MAX_MOVES_A_TRANSACTION, (move) =>
      move.idempotency ? keyOf(move) : null,
    );
    this.waiting.splice(0, this.waiting.length, ...left);
    return taken;
  }

  private async run(group: readonly Waiting[]): Promise<void> {
    if (group.length === 1) return runAlone(group[0] as Waiting);
    let pending = group;
    for (let attempt = 1; pending.length > 0; attempt++) {
      let outcomes: Outcome[];
      try {
        outcomes = await this.shared(pending);
      } catch (error) {
        if (error instanceof KeysTaken) {
          pending = await this.answerTaken(pending, error.taken, attempt);
          continue;
        }
        // The database could not finish (or tell whether it committed): running the moves again could post
        // them twice, so each gets this answer. Anything else: each move alone, so one that fails fails alone.
        if (error instanceof CommitOutcomeUnknown || isDatabaseUnavailable(error)) {
          for (const move of pending) move.reject(error);
        } else {
          await Promise.all(pending.map(runAlone));
        }
        return;
      }
      pending.forEach((move, i) => {
        const outcome = outcomes[i] as Outcome;
        if ('answer' in outcome) move.resolve(outcome.answer);
        // A refusal kept under its key is that key's answer, as `idempotentWrite` answers it.
        else if (outcome.keep && move.idempotency)
          move.resolve({ ...errorAnswer(outcome.error), replayed: false });
        else move.reject(outcome.error);
      });
      return;
    }
  }

  /**
   * The moves whose keys another request answered first get that first answer; the others are returned, to
   * run again.
   */
  private async answerTaken(
    pending: readonly Waiting[],
    takenAt: readonly number[],
    attempt: number,
  ): Promise<Waiting[]> {
    const taken = takenAt.map((i) => pending[i] as Waiting);
    const again = pending.filter((move) => !taken.includes(move));
    for (const move of taken) {
      const [first] = await keptAnswers(this.db, move.user().userId, [
        move.idempotency as IdempotencyRequest,
      ]);
      if (first instanceof AppError) move.reject(first);
      else if (first) move.resolve(first);
      else if (attempt >= WRITE_ATTEMPTS) move.reject(AppError.of('conflict', KEY_VANISHED_MESSAGE));
      // Expired and removed meanwhile: once more with the others.
      else again.push(move);
    }
    return again;
  }

  /** One shared transaction: the sessions with its BEGIN, each move's parties, the locks, the posting, the keys. */
  private shared(moves: readonly Waiting[]): Promise<Outcome[]> {
    const sessions = sessionsRead(moves);
    let sessionRows: unknown[] = [];
    return writeTransaction(
      this.db,
      async (tx) => {
        const outcomes: (Outcome | undefined)[] = moves.map(() => undefined);
        const planned: { at: number; move: Move }[] = [];
        for (const [at, waiting] of moves.entries()) {
          try {
            await waiting.session?.settle(
              tx,
              sessionRows.filter((r) => (r as { move_n: number }).move_n === at),
            );
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            // A session that is not live: `401`, kept under no key (as without the queue).
            outcomes[at] = { error, keep: false };
            continue;
          }
          try {
            planned.push({ at, move: await waiting.plan(tx, waiting.user()) });
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            // As `idempotentWrite` keeps a refusal: not a server error, not colliding writes.
            outcomes[at] = { error, keep: error.status < 500 && error.code !== 'conflict' };
          }
        }
        await postInOrder(tx, planned, outcomes);
        const decided = outcomes.map((o) => {
          if (!o) throw new Error('a credit move without an outcome');
          return o;
        });
        await keepKeys(tx, moves, decided);
        return decided;
      },
      sessions && {
        statement: sessions,
        settle: async (_tx, found) => {
          sessionRows = found;
        },
      },
    );
  }
}

function keyOf(move: MoveRequest): string {
  return `${move.caller}\n${move.idempotency?.key}`;
}

/** A move in a transaction of its own, with its answer or refusal. */
async function runAlone(move: Waiting): Promise<void> {
  try {
    move.resolve(await move.alone());
  } catch (error) {
    move.reject(error);
  }
}

/** The sessions still to read of the moves, as one statement whose rows name their move (`move_n`). */
function sessionsRead(moves: readonly Waiting[]): SQL | undefined {
  const reads = moves.flatMap((m, n) =>
    m.session ? [sql`select ${n}::int as move_n, r.* from (${m.session.statement}) r`] : [],
  );
  return reads.length > 0 ? sql.join(reads, sql` union all `) : undefined;
}

/**
 * Locks every account the planned moves change (id order) and reads the balances they answer, decides each
 * move in order (refused when an account other than the system's would go below zero, with the refusal the
 * posting function would have raised: the first such account in id order and what it holds), and posts the
 * moves counted in, with their audit entries, in one call.
 */
async function postInOrder(
  tx: Tx,
  planned: readonly { at: number; move: Move }[],
  outcomes: (Outcome | undefined)[],
): Promise<void> {
  if (planned.length === 0) return;
  const moved = [...new Set(planned.flatMap(({ move }) => move.lines.map((l) => l.accountId)))].sort();
  const movedSet = new Set(moved);
  const others = [...new Set(planned.flatMap(({ move }) => reportedAccounts(move)))].filter(
    (id) => !movedSet.has(id),
  );
  const found = await rows<{ id: string; kind: string; balance: string | number }>(
    tx,
    sql`with locked as (select id, kind, balance from credit_accounts
          where id = ${uuidsAny(moved)} and kind <> 'consumed' order by id for no key update)
        select id, kind, balance from locked
        union all select id, kind, balance from credit_accounts where id = ${uuidsAny(others)}`,
  );
  const balances = new Map(found.map((a) => [a.id, Number(a.balance)]));
  const system = new Set(found.filter((a) => a.kind === 'system').map((a) => a.id));
  const applied: { at: number; move: Move; after: Map<string, number> }[] = [];
  for (const { at, move } of planned) {
    const change = changeByAccount(move.lines);
    const short = [...change.keys()]
      .sort()
      .find((id) => !system.has(id) && (balances.get(id) ?? 0) + (change.get(id) ?? 0) < 0);
    if (short !== undefined) {
      outcomes[at] = { error: move.refusal(short, balances.get(short) ?? 0), keep: true };
      continue;
    }
    for (const [id, delta] of change) balances.set(id, (balances.get(id) ?? 0) + delta);
    applied.push({
      at,
      move,
      after: new Map(reportedAccounts(move).map((id) => [id, balances.get(id) ?? 0])),
    });
  }
  if (applied.length === 0) return;
  const audit = auditMovesStatement(applied.map(({ move, after }, index) => ({ move, index, after })));
  const { ids } = await postCreditTransactionsReporting(
    tx,
    applied.map(({ move }) => move),
    [],
    audit ? { afterward: [audit] } : {},
  );
  applied.forEach(({ at, move, after }, i) => {
    const body: CreditMoveResponse = moveAnswer(move, ids[i] as string, after);
    outcomes[at] = { answer: { status: 200, body, replayed: false }, keep: true };
  });
}

/** The answers of the moves with an Idempotency-Key under their keys; a key answered first rolls all back. */
async function keepKeys(tx: Tx, moves: readonly Waiting[], outcomes: readonly Outcome[]): Promise<void> {
  const keyed = moves.flatMap((move, i) => {
    const outcome = outcomes[i] as Outcome;
    if (!move.idempotency || !outcome.keep) return [];
    const answer = 'answer' in outcome ? outcome.answer : { ...errorAnswer(outcome.error), replayed: false };
    return [{ i, callerId: move.user().userId, idempotency: move.idempotency, answer }];
  });
  if (keyed.length === 0) return;
  const kept = await keepAnswers(tx, keyed);
  const taken = keyed.flatMap((k, j) => (kept[j] ? [] : [k.i]));
  if (taken.length > 0) throw new KeysTaken(taken);
}
