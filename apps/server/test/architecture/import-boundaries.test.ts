import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of docs/ARCHITECTURE.md ("Import boundaries") read from the source files themselves.
 * - No two feature folders depend on each other (directly or round a longer loop), on the server and in the web
 *   app: Biome cannot say it (a folder cycle need not be a file cycle: a feature's entry need not re-export the
 *   file that imports the other).
 * - The server's layers import only downwards (db/ ← lib/ ← http/ ← features/ ← app.ts and the rest of src/).
 *   Biome says it too (`noRestrictedImports`, one override per layer), but an override that names the same rule
 *   for the same files replaces the earlier one's patterns rather than adding to them, so a new override could
 *   silence it; this test would still fail.
 * Biome holds the rest (biome.json): no file cycle (`noImportCycles`), a server feature uses another only
 * through its entry. No database: it runs once, on PGlite's project only.
 */

const here = dirname(fileURLToPath(import.meta.url));
const serverSrc = resolve(here, '../../src');
const webSrc = resolve(here, '../../../web/src');

/** Every .ts/.tsx file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The files a file imports through relative specifiers (`from './x'`, `import('./x')`), resolved. */
function relativeImports(file: string, text: string): string[] {
  const specifiers = [
    ...text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]*)['"]/g),
    ...text.matchAll(/\bimport\s*\(\s*['"](\.{1,2}\/[^'"]*)['"]\s*\)/g),
    ...text.matchAll(/^\s*import\s+['"](\.{1,2}\/[^'"]*)['"]/gm),
  ].map((m) => m[1] as string);
  return specifiers.map((specifier) => {
    const base = resolve(dirname(file), specifier);
    const candidates = [
      base,
      `${base}.ts`,
      `${base}.tsx`,
      base.replace(/\.js$/, '.ts'),
      join(base, 'index.ts'),
      join(base, 'index.tsx'),
    ];
    const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
    if (!found) throw new Error(`${file}: cannot resolve '${specifier}'`);
    return found;
  });
}

interface Edge {
  from: string;
  to: string;
}

/** Every import edge between files under `root`, as paths relative to it with `/` separators. */
function importEdges(root: string): Edge[] {
  const rel = (path: string) => relative(root, path).split(sep).join('/');
  return sourceFiles(root).flatMap((file) =>
    relativeImports(file, readFileSync(file, 'utf8')).map((to) => ({ from: rel(file), to: rel(to) })),
  );
}

/** `features/<name>/…` → `<name>`; anything else → null. */
const featureOf = (path: string) => /^features\/([^/]+)\//.exec(path)?.[1] ?? null;

/** One cycle of the graph of feature folders (with a file import for each step), or null when there is none. */
function featureCycle(edges: Edge[]): string[] | null {
  const graph = new Map<string, Map<string, Edge>>();
  for (const edge of edges) {
    const from = featureOf(edge.from);
    const to = featureOf(edge.to);
    if (!from || !to || from === to) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    graph.get(from)?.set(to, edge);
  }
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    path.push(node);
    for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        return loop.slice(1).map((to, i) => {
          const edge = graph.get(loop[i] as string)?.get(to) as Edge;
          return `${loop[i]} → ${to} (${edge.from} imports ${edge.to})`;
        });
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

/** The server's layers from the bottom; a file outside them (app.ts, config.ts, seed/, …) is above them all. */
const LAYERS = ['db', 'lib', 'http', 'features'];
const layerOf = (path: string) => {
  const at = LAYERS.indexOf(path.split('/')[0] as string);
  return at === -1 ? LAYERS.length : at;
};

/** Each import of a layer's file from a layer above it, as `from imports to`. */
const upwardImports = (edges: Edge[]) =>
  edges.filter((e) => layerOf(e.to) > layerOf(e.from)).map((e) => `${e.from} imports ${e.to}`);

describe.skipIf(process.env.ALLOT_TEST_DB === 'postgres')('import boundaries', () => {
  const server = importEdges(serverSrc);

  it('sees the imports (the scan is not empty)', () => {
    expect(server.some((e) => e.from === 'app.ts' && featureOf(e.to) === 'auth')).toBe(true);
  });

  it('server: the feature folders import each other without a cycle', () => {
    expect(featureCycle(server)).toBeNull();
  });

  it('server: db/, lib/, http/ and features/ import only their own layer and the layers below it', () => {
    expect(upwardImports(server)).toEqual([]);
  });

  it('web: the feature folders import each other without a cycle', () => {
    expect(featureCycle(importEdges(webSrc))).toBeNull();
  });

  it('finds a cycle when there is one', () => {
    const edges = [
      { from: 'features/a/x.ts', to: 'features/b/y.ts' },
      { from: 'features/b/y.ts', to: 'features/c/z.ts' },
      { from: 'features/c/z.ts', to: 'features/a/w.ts' },
    ];
    expect(featureCycle(edges)).toHaveLength(3);
    expect(featureCycle(edges.slice(0, 2))).toBeNull();
  });

  it('finds an import up the layers when there is one', () => {
    const edges = [
      { from: 'db/read-replica.ts', to: 'lib/metrics.ts' },
      { from: 'lib/cursor.ts', to: 'http/app-error.ts' },
      { from: 'http/authenticate.ts', to: 'features/auth/sessions.ts' },
      { from: 'lib/metrics.ts', to: 'config.ts' },
      { from: 'features/credits/journal.ts', to: 'lib/metrics.ts' },
      { from: 'app.ts', to: 'features/auth/sessions.ts' },
    ];
    expect(upwardImports(edges)).toEqual(edges.slice(0, 4).map((e) => `${e.from} imports ${e.to}`));
  });
});
