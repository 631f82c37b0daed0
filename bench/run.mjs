// `npm run bench`: runs every benchmark in turn; each prints its own figures.
import { execFileSync } from 'node:child_process';

const benches = [
  'bench/bundle-size.mjs',
  'bench/user-import.ts',
  'bench/credits.ts',
  'bench/consumption.ts',
  'bench/reads.ts',
  'bench/organizations.ts',
  'bench/audit-export.ts',
  'bench/insights.ts',
];
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  const args = bench.endsWith('.ts') ? ['--import', 'tsx', bench] : [bench];
  execFileSync(process.execPath, args, { stdio: 'inherit' });
}
