import type { SQL } from 'drizzle-orm';
import type pg from 'pg';
import type { Tx } from './client';
import { rows } from './rows';

/**
 * A read a write transaction starts with, sent with its BEGIN (`startingWith` below, sent by db/client.ts: one round trip
 * for both), and what is done with its rows before the work runs, in every attempt: the caller's session of a
 * `sessionInQuery` write (http/write-route.ts). What `settle` throws ends the transaction like the work's.
 */
export interface FirstRead {
  statement: SQL;
  settle: (tx: Tx, rows: unknown[]) => Promise<void>;
}

/** The statement each transaction's work starts with (`startingWith`), and its answer once sent. */
export const firstStatements = new WeakMap<object, SQL>();
export const firstAnswers = new WeakMap<object, Promise<unknown[]>>();

/**
 * A transaction's work whose first statement is `first` (a read: the caller's session of a write, decision
 * 006), given its rows. On PostgreSQL the statement goes on the wire right behind the transaction's BEGIN,
 * without waiting for BEGIN's answer (node-postgres's pipeline mode, on this connection for these two only):
 * one round trip for both. It runs after BEGIN, inside the transaction; were BEGIN refused, the work would
 * not run (drizzle throws it), and a read run on its own harms nothing. On PGlite it is the work's first
 * statement.
 */
export function startingWith<T>(
  first: SQL,
  work: (tx: Tx, rows: unknown[]) => Promise<T>,
): (tx: Tx) => Promise<T> {
  const started = async (tx: Tx) => {
    const answer = firstAnswers.get(started);
    firstAnswers.delete(started);
    return work(tx, answer ? await answer : await rows<unknown>(tx, first));
  };
  firstStatements.set(started, first);
  return started;
}

/**
 * Sends `query` behind the next query the client is given (drizzle's BEGIN): both before either answers, in
 * one write to the socket (a system call costs the server more than the bytes: decision 006).
 */
export function sendBehindBegin(client: pg.PoolClient, query: pg.QueryConfig): Promise<unknown[]> {
  const own = client.query;
  // Typed read-only, as a setting of the connection; node-postgres reads it at every query it sends.
  const modes = client as { pipeline: boolean };
  const socket = (client as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } })
    .connection?.stream;
  return new Promise((resolve, reject) => {
    modes.pipeline = true;
    client.query = ((...args: Parameters<typeof own>) => {
      client.query = own;
      // In pipeline mode both are written as they are given: held back until the second is written too.
      socket?.cork?.();
      try {
        const begun = (own as (...a: unknown[]) => unknown).apply(client, args);
        (client.query(query) as Promise<pg.QueryResult>)
          .then((result) => resolve(result.rows), reject)
          .finally(() => {
            // Both answered (BEGIN's first): nothing else is on the wire, one query at a time again.
            modes.pipeline = false;
          });
        return begun;
      } finally {
        socket?.uncork?.();
      }
    }) as typeof own;
  });
}
