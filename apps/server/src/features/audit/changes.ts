/**
 * The fields that differ between two versions of a thing, as an entry's `before` and `after` (only what
 * changed, decision 014); null when nothing did (no entry is written for a save that changed nothing).
 */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: T,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const keys = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (keys.length === 0) return null;
  return {
    before: Object.fromEntries(keys.map((k) => [k, before[k] ?? null])),
    after: Object.fromEntries(keys.map((k) => [k, after[k] ?? null])),
  };
}
