import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order files start in (docs/TESTING.md). On two workers a long file started last keeps one core busy
 * alone at the end, so the longest start first; a fresh clone has no timings cached, so they are named here
 * (the longest of the last runs, `npm run test:cost`).
 */
const FIRST = [
  'apps/server/test/credits/ledger-processes.test.ts',
  'apps/server/test/search/list-search-reference.test.ts',
  'apps/server/test/audit/audit-export-large.test.ts',
  'apps/server/test/credits/ledger-workload.test.ts',
  'apps/server/test/server-processes.test.ts',
  'apps/server/test/fuzz/api-fuzz.test.ts',
  'apps/server/test/db/backup.test.ts',
  'apps/server/test/auth/sign-in-limits.test.ts',
];

/** Files that start after every other: what they leave behind would slow the files after them. */
const LAST = [
  // A thousand invitations it queues are still being mailed when it ends: no other file's mail waits behind them.
  'e2e/search-at-scale.test.ts',
];

export class TestOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const first = FIRST.findIndex((path) => file.moduleId.endsWith(path));
      if (first >= 0) return first - FIRST.length;
      return LAST.some((path) => file.moduleId.endsWith(path)) ? 1 : 0;
    };
    // Array.prototype.sort is stable: within a rank, vitest's own order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
