// `npm run test:quick -- <area> [more vitest arguments]`: the quick loop (docs/TESTING.md). Runs the tests of
// one area (any file whose path holds the word: `credits`, `licenses`, `auth`, `users/user-import`…) in the
// domain, web and server suites, on PGlite, without the browser: a few minutes at most. `--browser` adds the
// browser test files whose path holds the word (they build the web app and start a server first).
import { spawn } from 'node:child_process';

const ROOT = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const browser = args.includes('--browser');
const rest = args.filter((arg) => arg !== '--browser');
if (rest.length === 0 || rest[0].startsWith('-')) {
  console.error(
    'usage: npm run test:quick -- <area> [--browser] [vitest arguments], e.g. npm run test:quick -- credits',
  );
  process.exit(2);
}
const projects = ['domain', 'web', 'server:pglite', 'server:pglite:isolated', ...(browser ? ['e2e'] : [])];
// On PGlite only, every file of the area (TEST_DATABASE_URL would leave PGlite a smoke set).
const { TEST_DATABASE_URL: _postgres, ...env } = process.env;
const child = spawn(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--passWithNoTests',
    ...rest,
  ],
  { cwd: ROOT, stdio: 'inherit', env },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
