// `npm run bench`: runs every benchmark in turn; each prints its own figures.
import { execFileSync } from 'node:child_process';

const benches = ['bench/bundle-size.mjs'];
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  execFileSync(process.execPath, [bench], { stdio: 'inherit' });
}
