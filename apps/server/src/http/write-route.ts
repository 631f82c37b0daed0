import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client';
import { writeTransaction } from '../db/transaction';
import type { BackgroundWork } from '../lib/background';
import type { AppError } from './app-error';
import { authOf, sessionFirstRead } from './authenticate';
import {
  type Answer,
  type IdempotencyRequest,
  idempotencyOf,
  idempotentWrite,
  type KeyAlongside,
  replyAnswer,
} from './idempotency';

/**
 * The work's way to answer a refusal once its transaction has committed: what it wrote stays (the challenge of
 * a sign-in answered `403 mfa_required`, a wrong code's count, the rows an import added before its `402`).
 */
export class RefusalAfterCommit {
  constructor(readonly error: AppError) {}
}

export const refuseAfterCommit = (error: AppError) => new RefusalAfterCommit(error);

export interface WriteRouteOptions<B = undefined> {
  /** The status of the work's answer: 201 for a creation. */
  status?: number;
  /**
   * The route takes an `Idempotency-Key` (its schema lists `idempotencyHeader`; CONTRACT §5 says which):
   * `true` keys it by the signed-in user; the integration calls name their caller (the integration key) and
   * the key they require. A route without it ignores the header.
   */
  idempotent?: true | { callerId: string; idempotency: IdempotencyRequest };
  /** Sees the answer before it is sent (the integration calls count their consumptions). */
  answered?: (answer: Answer) => void;
  /**
   * A step before the transaction, run once on the `Db` and on its own: what it writes stays whatever happens
   * next (a rate limit's count, so that a refused attempt counts), its refusal is the answer, and it holds no
   * connection while it waits (a password's hash). What it answers is the work's third argument. The calls
   * that count an attempt (`checkSignIn`, `checkCode`, `countCodeAttempt`, `countImport`) count here, and check
   * access here too, not in the work, so that a call refused access is not counted; a right attempt is given
   * back in the work's transaction.
   */
  before?: () => Promise<B>;
}

/**
 * Every write route's one way to the database: the work (the service, called with the transaction as its
 * first argument) runs in one `writeTransaction`, so it is run again from the start on a deadlock, a
 * serialization failure or a connection lost before COMMIT, and must keep no state outside the transaction.
 * A route that takes an `Idempotency-Key` goes through `idempotentWrite`: the answer is kept with the key in
 * the same transaction, a repeat answers the first answer with `Idempotent-Replayed: true`. Only the work's
 * own success status is set here; its refusals are thrown, mapped by the error handler, and roll it back; one
 * it returns (`refuseAfterCommit`, not for an idempotent route) is thrown once it has committed. A call that
 * answers alike whatever it finds goes through `writeAfterAnswering` (below).
 */
export async function writeRoute<T, B = undefined>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Tx, key: KeyAlongside | null, before: NoInfer<B>) => Promise<T | RefusalAfterCommit>,
  options: WriteRouteOptions<B> = {},
): Promise<T | FastifyReply> {
  const { status, idempotent, answered, before } = options;
  const prepared = (before ? await before() : undefined) as B;
  const session = sessionFirstRead(request);
  if (!idempotent) {
    const body = await writeTransaction(db, (tx) => work(tx, null, prepared), session);
    if (body instanceof RefusalAfterCommit) throw body.error;
    if (status !== undefined) reply.status(status);
    return body;
  }
  const answer = await idempotentAnswer(db, request, (tx, key) => work(tx, key, prepared), {
    ...(status !== undefined ? { status } : {}),
    ...(idempotent === true ? {} : { idempotent }),
  });
  answered?.(answer);
  return replyAnswer(reply, answer);
}

/**
 * `writeRoute`'s way for a route that takes an `Idempotency-Key`, answering the `Answer` rather than sending
 * it (a credit move run alone by the move queue, features/credits/move-queue.ts): keyed by the signed-in user
 * unless `idempotent` names the caller and the key.
 */
export async function idempotentAnswer<T>(
  db: Db,
  request: FastifyRequest,
  work: (tx: Tx, key: KeyAlongside | null) => Promise<T | RefusalAfterCommit>,
  options: {
    status?: number;
    /** The key, when the route has made it already, and whose it is: the signed-in user's unless named. */
    idempotent?: { callerId?: string; idempotency: IdempotencyRequest | null };
  } = {},
): Promise<Answer> {
  // A `sessionInQuery` write knows its caller once its transaction's first statement has found the session.
  const callerId = options.idempotent?.callerId ?? (() => authOf(request).userId);
  const idempotency = options.idempotent ? options.idempotent.idempotency : idempotencyOf(request);
  return idempotentWrite(
    db,
    callerId,
    idempotency,
    async (tx, key) => {
      const body = await work(tx, key);
      if (body instanceof RefusalAfterCommit)
        throw new Error('refuseAfterCommit: not for an idempotent route');
      return body;
    },
    options.status,
    request.routeOptions.config?.messages,
    sessionFirstRead(request),
  );
}

/**
 * A call that answers alike for every address (nobody learns who has an account or an invitation): `{success:
 * true}` at once, and its `before` and work (the mail, if any) after, as background work, so that the time of
 * the answer does not tell either.
 */
export function writeAfterAnswering<B>(
  background: BackgroundWork,
  label: string,
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Tx, key: KeyAlongside | null, before: B) => Promise<unknown>,
  before: () => Promise<B>,
): { success: true } {
  background.run(label, () => writeRoute(db, request, reply, work, { before }));
  return { success: true };
}
