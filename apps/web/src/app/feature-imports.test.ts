import { describe, expect, it } from 'vitest';

/**
 * The feature folders import each other one way only (docs/decisions/007-web-query-keys.md): a screen that
 * puts several features together lives in `app/routes`, a piece two features share in `components` or
 * `lib`. Read from the sources, so a new import that closes a cycle fails here rather than in review.
 */
const sources = import.meta.glob<string>('../features/**/*.{ts,tsx}', {
  query: '?raw',
  import: 'default',
  eager: true,
});

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** 'features/users/api/x' → 'users'; null outside the feature folders. */
function featureOf(path: string): string | null {
  const match = /(?:^|\/)features\/([^/]+)\//.exec(path);
  return match?.[1] ?? null;
}

function resolve(from: string, specifier: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/** feature → the features it imports, with one file that does it for each. */
function featureGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const [path, source] of Object.entries(sources)) {
    const from = featureOf(path);
    if (!from) continue;
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2];
      if (!specifier) continue;
      const to = featureOf(resolve(path, specifier));
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, path);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Every cycle found by a depth-first walk, as the chain of features with the file of each step. */
function cycles(graph: Map<string, Map<string, string>>): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const walk = (feature: string, path: string[]) => {
    const at = path.indexOf(feature);
    if (at >= 0) {
      const loop = [...path.slice(at), feature];
      found.push(
        loop
          .slice(0, -1)
          .map((f, i) => `${f} → ${loop[i + 1]} (${graph.get(f)?.get(loop[i + 1] ?? '')})`)
          .join(', '),
      );
      return;
    }
    if (done.has(feature)) return;
    for (const next of graph.get(feature)?.keys() ?? []) walk(next, [...path, feature]);
    done.add(feature);
  };
  for (const feature of graph.keys()) walk(feature, []);
  return found;
}

describe('feature folders', () => {
  it('are read from the sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(featureGraph().size).toBeGreaterThan(0);
  });

  it('would show a cycle', () => {
    const graph = new Map([
      ['a', new Map([['b', 'features/a/x.ts']])],
      ['b', new Map([['a', 'features/b/y.ts']])],
    ]);
    expect(cycles(graph)).toEqual(['a → b (features/a/x.ts), b → a (features/b/y.ts)']);
  });

  it('import each other without a cycle', () => {
    expect(cycles(featureGraph())).toEqual([]);
  });
});
