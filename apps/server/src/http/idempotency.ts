import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_MESSAGE, IDEMPOTENCY_KEY_PATTERN } from '@allot/domain/credits';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db, Tx } from '../db/client';
import type { FirstRead } from '../db/first-read';
import { jsonParam } from '../db/json-params';
import { preparedRows } from '../db/prepared-rows';
import { rows } from '../db/rows';
import { rememberTransactionId, WRITE_ATTEMPTS, writeTransaction } from '../db/transaction';
import { AppError } from './app-error';
import { errorAnswer, type RouteMessages } from './error-handler';

/** How long a key answers with its first answer (CONTRACT §5: at least 24 hours). */
export const IDEMPOTENCY_KEY_HOURS = 24;

export const KEY_REUSED_MESSAGE =
  'This Idempotency-Key was already used for another request. Use a new key for a new request.';

/** The header as the API document shows it, on every call that takes one. */
export const idempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .describe('1–255 printable characters; a repeat with the same key and body answers the first answer'),
});

export interface Answer {
  status: number;
  body: unknown;
  /** True when the answer is the stored first answer of an earlier request with the same key. */
  replayed: boolean;
}

export interface IdempotencyRequest {
  key: string;
  hash: string;
}

/** JSON with its object keys sorted, so that the same body always hashes alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The `Idempotency-Key` of a request with the hash of what it asks (method, route, body), or null without
 * one. A key that is not 1–255 printable ASCII characters is a `400` naming the header.
 */
export function idempotencyOf(request: FastifyRequest): IdempotencyRequest | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw AppError.invalid({ 'Idempotency-Key': IDEMPOTENCY_KEY_MESSAGE }, IDEMPOTENCY_KEY_MESSAGE);
  }
  const hash = createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n${canonicalJson(request.body)}`)
    .digest('hex');
  return { key, hash };
}

/** The work was refused (a 4xx): its transaction is rolled back, and the refusal is kept as the answer after. */
class Refused extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
  }
}

/** Another request with the same key was answered first: this one's work is rolled back. */
class KeyTaken extends Error {
  constructor() {
    super('idempotency key answered by another request');
  }
}

/**
 * Runs a write in one transaction (writeTransaction: retried on deadlocks and serialization failures).
 * With an `Idempotency-Key`, the answer is kept with the key in the same transaction, as its last statement:
 * a second request with the same key waits on the key's row until the first commits, then rolls its own work
 * back and answers the first answer (status and body); the same key with another request is
 * `409 idempotency_key_reused`. The work comes first and the key last (decision 016): one insert a request
 * where claiming the key first took an insert, a savepoint and an update. A refusal (a 4xx from the work) is
 * kept as the answer too, with the work undone: the repeat is refused alike even if the balances changed
 * meanwhile. A `409` of colliding writes is not kept: a retry may pass. The routes that take a key: credit
 * moves, licence moves, invoices, requests, consumption batches (single consumptions and credit moves that
 * share a transaction keep theirs with `keepAnswers`, below).
 */
export async function idempotentWrite<T>(
  db: Db,
  /**
   * Whose keys these are: a user's id for a session, an integration key's id for the classroom product; a
   * function when the caller is known only once the transaction's `firstRead` has found the session.
   */
  caller: string | (() => string),
  idempotency: IdempotencyRequest | null,
  /** The work; with a key, it may keep it in its own last write (`KeyAlongside`), else it is kept after. */
  work: (tx: Tx, key: KeyAlongside | null) => Promise<T>,
  /** The status of the work's answer: 201 for a creation. */
  successStatus = 200,
  /** The route's own words for its refusals (route config `messages`), as the error handler uses them. */
  messages?: RouteMessages,
  /** The transaction's first read (a `sessionInQuery` write's session), in every attempt. */
  firstRead?: FirstRead,
): Promise<Answer> {
  if (!idempotency) {
    return {
      status: successStatus,
      body: await writeTransaction(db, (tx) => work(tx, null), firstRead),
      replayed: false,
    };
  }
  const callerId = () => (typeof caller === 'string' ? caller : caller());
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeTransaction(
        db,
        async (tx) => {
          let keptByWork: { xid: string | null } | undefined;
          const alongside: KeyAlongside = {
            statement: (body) =>
              keepStatement(callerId(), idempotency, { status: successStatus, body, replayed: false }),
            kept: (xid) => {
              keptByWork = { xid: xid ?? null };
            },
          };
          let body: T;
          try {
            body = await work(tx, alongside);
          } catch (error) {
            if (!(error instanceof AppError) || error.status >= 500 || error.code === 'conflict') throw error;
            throw new Refused(error);
          }
          const answer = { status: successStatus, body, replayed: false };
          if (keptByWork) {
            if (!keptByWork.xid) throw new KeyTaken();
            rememberTransactionId(tx, keptByWork.xid);
            return answer;
          }
          if (!(await keep(tx, callerId(), idempotency, answer))) throw new KeyTaken();
          return answer;
        },
        firstRead,
      );
    } catch (error) {
      if (error instanceof Refused) {
        const answer = { ...errorAnswer(error.error, messages), replayed: false };
        if (await writeTransaction(db, (tx) => keep(tx, callerId(), idempotency, answer))) return answer;
      } else if (!(error instanceof KeyTaken)) {
        throw error;
      }
    }
    const [first] = await keptAnswers(db, callerId(), [idempotency]);
    if (first instanceof AppError) throw first;
    if (first) return first;
    // Expired and removed between the two statements: once more from the start.
    if (attempt >= WRITE_ATTEMPTS) throw AppError.of('conflict', KEY_VANISHED_MESSAGE);
  }
}

export const KEY_VANISHED_MESSAGE =
  'This request collided with another one using the same Idempotency-Key. Please try again.';

/**
 * The key kept in the work's own last write, one round trip less (decision 016): `statement(body)` is a
 * data-modifying statement for that write's `with` (its `answer`: the transaction's id, or no row when the
 * key already answers), with the body the work will return; `kept(answer)` hands back what it answered.
 */
export interface KeyAlongside {
  statement(body: unknown): SQL;
  kept(answer: string | null | undefined): void;
}

/**
 * The answer under the key, unless the key already answers (a key past its 24 hours is taken over): one row
 * `answer`, the transaction's id, when kept. Waits for an uncommitted request with the same key to end.
 */
function keepStatement(callerId: string, { key, hash }: IdempotencyRequest, answer: Answer): SQL {
  return sql`insert into idempotency_keys (caller_id, key, request_hash, status, response)
    values (${callerId}, ${key}, ${hash}, ${answer.status}, ${JSON.stringify(answer.body)}::jsonb)
    ${TAKE_OVER_EXPIRED_KEY}
    returning pg_current_xact_id()::text as answer`;
}

/** A key already answering keeps its answer; one past its 24 hours is taken over by the new request. */
const TAKE_OVER_EXPIRED_KEY = sql`on conflict (caller_id, key) do update
  set request_hash = excluded.request_hash, status = excluded.status, response = excluded.response,
    created_at = now()
  where idempotency_keys.created_at < now() - make_interval(hours => ${sql.raw(String(IDEMPOTENCY_KEY_HOURS))})`;

/** `keepStatement` on its own. True when kept. */
async function keep(
  tx: Tx,
  callerId: string,
  idempotency: IdempotencyRequest,
  answer: Answer,
): Promise<boolean> {
  const kept = await preparedRows<{ answer: string }>(tx, keepStatement(callerId, idempotency, answer));
  rememberTransactionId(tx, kept[0]?.answer);
  return kept.length > 0;
}

/** One request's key and the answer to keep under it (`keepAnswers`), with whose keys these are. */
export interface KeyedAnswer {
  callerId: string;
  idempotency: IdempotencyRequest;
  answer: Answer;
}

/**
 * The answers of several requests under their keys, in one statement, as `keepStatement` keeps one (in
 * caller and key order, so that two such statements wait on each other rather than deadlock): for each,
 * whether it was kept (false: another request answered under that key first). A caller's keys must differ.
 */
export async function keepAnswers(tx: Tx, keyed: readonly KeyedAnswer[]): Promise<boolean[]> {
  const entries = keyed.map(({ callerId, idempotency, answer }) => ({
    caller: callerId,
    key: idempotency.key,
    hash: idempotency.hash,
    status: answer.status,
    body: answer.body,
  }));
  const kept = await preparedRows<{ caller_id: string; key: string; xid: string }>(
    tx,
    sql`insert into idempotency_keys (caller_id, key, request_hash, status, response)
      select (e->>'caller')::uuid, e->>'key', e->>'hash', (e->>'status')::int, (e->'body')::jsonb
      from json_array_elements(${jsonParam(entries)}) as e order by e->>'caller', e->>'key'
      ${TAKE_OVER_EXPIRED_KEY}
      returning caller_id, key, pg_current_xact_id()::text as xid`,
  );
  rememberTransactionId(tx, kept[0]?.xid);
  const keys = new Set(kept.map((k) => `${k.caller_id}\n${k.key}`));
  return keyed.map(({ callerId, idempotency }) => keys.has(`${callerId.toLowerCase()}\n${idempotency.key}`));
}

/**
 * The first answer kept under each key, as `idempotentWrite` answers a repeat: replayed, or
 * `idempotency_key_reused` for another request; null where no key is kept (expired meanwhile).
 */
export async function keptAnswers(
  db: Db,
  callerId: string,
  requests: readonly IdempotencyRequest[],
): Promise<(Answer | AppError | null)[]> {
  const kept = await rows<{ key: string; request_hash: string; status: number; response: unknown }>(
    db,
    sql`select key, request_hash, status, response from idempotency_keys
      where caller_id = ${callerId} and key in (select value from json_array_elements_text(${jsonParam(requests.map((r) => r.key))}))`,
  );
  const byKey = new Map(kept.map((k) => [k.key, k]));
  return requests.map(({ key, hash }) => {
    const first = byKey.get(key);
    if (!first) return null;
    if (first.request_hash !== hash) return AppError.of('idempotency_key_reused', KEY_REUSED_MESSAGE);
    return { status: first.status, body: first.response, replayed: true };
  });
}

/** Sends an `idempotentWrite` answer: its status and body, and `Idempotent-Replayed: true` on a repeat. */
export function replyAnswer(reply: FastifyReply, answer: Answer) {
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(answer.status).send(answer.body);
}
