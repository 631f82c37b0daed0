import { existsSync } from 'node:fs';

// PostgreSQL's Unix socket when there is one on this machine: on the sandboxed 2-core machines here a loopback
// TCP round trip costs the server about a quarter of its CPU.
const SOCKET_DIR = '/var/run/postgresql';

/** A bench's database: `process.env[variable]` when set, else `name` on the local PostgreSQL. */
export function benchDatabaseUrl(variable: string, name: string): string {
  return (
    process.env[variable] ??
    (existsSync(`${SOCKET_DIR}/.s.PGSQL.5432`)
      ? `postgres://postgres@localhost/${name}?host=${SOCKET_DIR}`
      : `postgres://postgres@127.0.0.1:5432/${name}`)
  );
}

/** The same server's database `name` (`postgres` for creating and dropping the others). */
export function databaseUrl(url: string, name: string): string {
  return Object.assign(new URL(url), { pathname: `/${name}` }).toString();
}
