import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client';
import { writeTransaction } from '../db/transaction';
import { authOf } from './authenticate';
import {
  type Answer,
  type IdempotencyRequest,
  idempotencyOf,
  idempotentWrite,
  type KeyAlongside,
  replyAnswer,
} from './idempotency';

export interface WriteRouteOptions {
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
}

/**
 * Every write route's one way to the database: the work (the service, called with the transaction as its
 * first argument) runs in one `writeTransaction`, so it is run again from the start on a deadlock, a
 * serialization failure or a connection lost before COMMIT, and must keep no state outside the transaction.
 * A route that takes an `Idempotency-Key` goes through `idempotentWrite`: the answer is kept with the key in
 * the same transaction, a repeat answers the first answer with `Idempotent-Replayed: true`. Only the work's
 * own success status is set here; its refusals are thrown, mapped by the error handler.
 */
export async function writeRoute<T>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Tx, key: KeyAlongside | null) => Promise<T>,
  options: WriteRouteOptions = {},
): Promise<T | FastifyReply> {
  const { status, idempotent, answered } = options;
  if (!idempotent) {
    const body = await writeTransaction(db, (tx) => work(tx, null));
    if (status !== undefined) reply.status(status);
    return body;
  }
  const { callerId, idempotency } =
    idempotent === true
      ? { callerId: authOf(request).userId, idempotency: idempotencyOf(request) }
      : idempotent;
  const answer = await idempotentWrite(
    db,
    callerId,
    idempotency,
    work,
    status,
    request.routeOptions.config?.messages,
  );
  answered?.(answer);
  return replyAnswer(reply, answer);
}
