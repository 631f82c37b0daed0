import pg from 'pg';
import { databaseUrl } from './database-url';

/** A positive number from the environment variable `name`, else `fallback`. */
export function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, not ${process.env[name]}`);
  return value;
}

export interface BenchDatabase {
  /** The database's name. */
  name: string;
  /** The URL without its credentials, for messages. */
  shownUrl: string;
  /** A connection to the same server's `postgres` database: for settings and activity, outside the measured one. */
  admin: pg.Client;
  /** Adds what `cleanUp` undoes, last added first (stop a server, close a client). */
  onCleanUp(cleanup: () => Promise<unknown>): void;
  /** Undoes everything added, then drops the database. Run it once the bench is done, failed or not. */
  cleanUp(): Promise<void>;
  /** Whether Ctrl-C (or SIGTERM) stopped the bench: its failure is then no news. */
  interrupted(): boolean;
}

/**
 * Drops the database of `url` if a run left it and creates it empty. Answers a connection to the server's
 * `postgres` database (the caller ends it). Without a PostgreSQL answering, the bench says it is skipped and
 * the process ends (`npm run bench` goes on to the next).
 */
export async function recreateBenchDatabase(label: string, url: string, hint = ''): Promise<pg.Client> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new pg.Client({
    connectionString: databaseUrl(url, 'postgres'),
    connectionTimeoutMillis: 5000,
  });
  try {
    await admin.connect();
  } catch (error) {
    const shownUrl = url.replace(/\/\/[^@/]*@/, '//');
    console.log(
      `${label} bench skipped: no PostgreSQL answers at ${shownUrl} (${(error as Error).message})${hint ? `; ${hint}` : ''}`,
    );
    process.exit(0);
  }
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  return admin;
}

/**
 * A bench's own database at `url`, created afresh (dropped first if a run left it). Whatever happens after
 * (an error, Ctrl-C), `cleanUp` stops what was added and drops it.
 */
export async function freshBenchDatabase(label: string, url: string, hint = ''): Promise<BenchDatabase> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const shownUrl = url.replace(/\/\/[^@/]*@/, '//');
  const cleanups: (() => Promise<unknown>)[] = [];
  let interrupted = false;
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error(`${label} bench: cleaning up: ${(error as Error).message}`);
      }
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      console.error(`\n${label} bench: ${signal}, stopping and dropping ${name}`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  const admin = await recreateBenchDatabase(label, url, hint);
  cleanups.push(async () => {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });
  return {
    name,
    shownUrl,
    admin,
    onCleanUp: (cleanup) => cleanups.push(cleanup),
    cleanUp,
    interrupted: () => interrupted,
  };
}
