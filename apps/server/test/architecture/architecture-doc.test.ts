import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_STATUS } from '@allot/domain/errors';
import { describe, expect, it } from 'vitest';

/**
 * docs/ARCHITECTURE.md stays true of the code it names (issue 34): every file or folder it names in backquotes
 * exists, and every function, type, table or setting it names still occurs in the code. Words in backquotes
 * that are neither (an HTTP status, a SQL fragment, an example value) are not checked. The same holds for the
 * pages its details moved to (issue 51): the features' map and the database's tables, beside their code.
 */
const root = path.resolve(__dirname, '../../../..');
const SOURCES = ['apps', 'packages', 'e2e', 'bench', 'scripts', '.ci'];
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'screenshots', 'data', '.git']);

function walk(directory: string, files: string[] = []): string[] {
  if (!existsSync(directory)) return files;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) walk(full, files);
    else files.push(full);
  }
  return files;
}

const files = SOURCES.flatMap((source) => walk(path.join(root, source)));
const fileNames = new Set(files.map((file) => path.basename(file)));
const folderNames = new Set(files.flatMap((file) => path.relative(root, path.dirname(file)).split(path.sep)));
const codeWords = new Set<string>();
for (const file of files) {
  if (!/\.(ts|tsx|mjs|js|sql|json|sh)$|\/run$/.test(file)) continue;
  for (const word of readFileSync(file, 'utf8').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) codeWords.add(word);
}
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

const read = (page: string) => readFileSync(path.join(root, page), 'utf8');
/** The words a page names in backquotes, each once. */
const namesIn = (text: string) => [...new Set([...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string))];

const document = read('docs/ARCHITECTURE.md');
const named = namesIn(document);
/** The pages that hold what ARCHITECTURE.md points to, held to the code alike. */
const PAGES_BESIDE_THE_CODE = ['apps/server/src/features/README.md', 'apps/server/src/db/README.md'];

const FILE = /^[\w./<>*-]+\.(ts|tsx|md|sql|mjs|json|css)$/;
const FOLDER = /^[\w.-]+(\/[\w.-]+)*\/$/;
/** A function or type as the code spells it, maybe with its arguments: `idempotentWrite`, `accessFromRoles(…)`. */
const SYMBOL = /^([a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*)(\(.*\))?$/;
/** A table, column or SQL function: `credit_entries`, `subtree_pool_credits_of(id)`. */
const SQL_NAME = /^([a-z]+(_[a-z0-9]+)+)(\(.*\))?$/;
/** A setting: `DATABASE_READ_URL`. */
const SETTING = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;

function missing(name: string): string | null {
  if (FILE.test(name)) {
    if (name.includes('<') || name.includes('*')) return null;
    if (name.includes('/')) {
      const candidates = [name, `apps/server/src/${name}`, `apps/web/src/${name}`, `apps/server/${name}`];
      return candidates.some((c) => existsSync(path.join(root, c))) || fileNames.has(path.basename(name))
        ? null
        : 'no such file';
    }
    return fileNames.has(name) || existsSync(path.join(root, name)) ? null : 'no such file';
  }
  if (FOLDER.test(name)) {
    const parts = name.replace(/\/$/, '').split('/');
    const last = parts.at(-1) as string;
    return existsSync(path.join(root, name)) || folderNames.has(last) ? null : 'no such folder';
  }
  const symbol = name.match(SYMBOL)?.[1] ?? name.match(SQL_NAME)?.[1];
  if (symbol) return codeWords.has(symbol) ? null : 'not in the code';
  if (SETTING.test(name)) return codeWords.has(name) || readme.includes(name) ? null : 'not in the code';
  return null;
}

const stale = (names: string[]) =>
  names.flatMap((name) => {
    const why = missing(name);
    return why ? [`${name}: ${why}`] : [];
  });

describe('docs/ARCHITECTURE.md', () => {
  it('names only files, folders, symbols and settings that exist', () => {
    expect(stale(named)).toEqual([]);
  });

  it.each(PAGES_BESIDE_THE_CODE)('%s names only files, folders, symbols and settings that exist', (page) => {
    expect(stale(namesIn(read(page)))).toEqual([]);
  });

  it('its error table gives every error code of the domain its status, and no other', () => {
    const table = new Map<string, number>();
    for (const [, codes, status] of document.matchAll(/^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \| (\d{3})\b/gm)) {
      for (const [, code] of (codes as string).matchAll(/`([a-z_]+)`/g))
        table.set(code as string, Number(status));
    }
    expect(Object.fromEntries([...table].sort())).toEqual(
      Object.fromEntries(Object.entries(ERROR_STATUS).sort(([a], [b]) => (a < b ? -1 : 1))),
    );
  });

  it('pairs every feature folder of the web and the server in its table of subjects, and names no other', () => {
    const folders = (side: string) =>
      readdirSync(path.join(root, side), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    const start = document.indexOf('| web feature (`apps/web/src/features/`) |');
    const table = document.slice(start, document.indexOf('\n\n', start));
    const rows = [...table.matchAll(/^\| ([a-z-]+|–) \| ([a-z, -]+|–) \| [^|\n]+ \|$/gm)];
    const named = (cells: string[]) =>
      [...new Set(cells.flatMap((cell) => cell.split(', ')))].filter((n) => n !== '–');
    expect(named(rows.map((row) => row[1] as string)).sort()).toEqual(folders('apps/web/src/features'));
    expect(named(rows.map((row) => row[2] as string)).sort()).toEqual(folders('apps/server/src/features'));
  });

  it('checks a fair share of what it names (the patterns above still match the documents)', () => {
    const checked = (names: string[]) =>
      names.filter((name) => FILE.test(name) || SYMBOL.test(name) || SQL_NAME.test(name)).length;
    expect(checked(named)).toBeGreaterThan(60);
    for (const page of PAGES_BESIDE_THE_CODE) expect(checked(namesIn(read(page))), page).toBeGreaterThan(100);
  });
});
