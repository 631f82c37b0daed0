/**
 * Which server test files run where (docs/TESTING.md). Paths are relative to apps/server.
 *
 * Most files share a worker process with others (`isolate: false`): each opens its own database copy and
 * builds its own app, so nothing of one file reaches the next, and the process, imports and PGlite's load
 * are paid once a worker instead of once a file.
 */

/** Files that get a process of their own: they start child processes, read process-wide registries or the source tree. */
export const ISOLATED_FILES = [
  'test/server-processes.test.ts',
  'test/credits/ledger-processes.test.ts',
  'test/db/backup.test.ts',
  'test/metrics/metrics.test.ts',
  'test/architecture/*.test.ts',
];

/**
 * With PostgreSQL present, the PGlite run keeps the files whose behaviour is PGlite's own (its data on disk,
 * its backup, its single connection, its migrations, the processes that share it, the checks that run on
 * PGlite only) and a smoke set of the main calls; every other file runs on PostgreSQL only. Where no
 * PostgreSQL answers (a newcomer's machine), or with ALLOT_TEST_PGLITE=all, every file runs on PGlite.
 */
export const PGLITE_OWN_FILES = [
  'test/server-processes.test.ts',
  'test/credits/ledger-processes.test.ts',
  'test/credits/member-split-migration.test.ts',
  'test/db/backup.test.ts',
  'test/db/write-transaction.test.ts',
  'test/architecture/*.test.ts',
];

export const PGLITE_SMOKE_FILES = [
  'test/health/health.test.ts',
  'test/auth/login.test.ts',
  'test/organizations/organization-changes.test.ts',
  'test/users/user-create.test.ts',
  'test/credits/credit-moves.test.ts',
  'test/licenses/license-calls.test.ts',
  'test/invoices/invoice-calls.test.ts',
  'test/requests/request-calls.test.ts',
  'test/integration/consume.test.ts',
  'test/audit/audit-log.test.ts',
  'test/mail/outbox.test.ts',
];

export const ALL_FILES = ['test/**/*.test.ts', 'src/**/*.test.ts'];
