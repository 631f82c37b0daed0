// The web app's initial JavaScript (what index.html loads before the first screen) and its largest
// chunk, gzip-compressed. Target: initial load under 250 KB.
import { execSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const TARGET_KB = 250;
const dist = path.resolve('apps/web/dist');

export function bundleSize({ build = true } = {}) {
  if (build) execSync('npm run build -w apps/web', { stdio: 'ignore' });
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const initial = new Set(
    [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/?([^"]+\.js)"/g)].map(
      (m) => m[1],
    ),
  );
  const gz = (file) => gzipSync(readFileSync(path.join(dist, file))).length;
  const chunks = readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ file: `assets/${f}`, gzip: gz(`assets/${f}`) }))
    .sort((a, b) => b.gzip - a.gzip);
  const initialGzip = [...initial].reduce((sum, f) => sum + gz(f), 0);
  return { initialFiles: [...initial], initialGzip, largest: chunks[0], chunkCount: chunks.length };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = bundleSize();
  console.log('web bundle (gzip)');
  console.log(
    `  initial JavaScript: ${kb(r.initialGzip)} in ${r.initialFiles.length} files (target < ${TARGET_KB} KB: ${r.initialGzip < TARGET_KB * 1024 ? 'met' : 'MISSED'})`,
  );
  console.log(`  largest chunk:      ${kb(r.largest.gzip)} (${r.largest.file})`);
  console.log(`  chunks:             ${r.chunkCount}`);
}
