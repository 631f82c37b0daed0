/**
 * The first `max` items in order, each key once (an item without a key always fits), and the items left, in
 * their order: a shared transaction's requests, where a repeat of a key waits for the next one.
 */
export function takeOncePerKey<T>(
  items: readonly T[],
  max: number,
  keyOf: (item: T) => string | null,
): { taken: T[]; left: T[] } {
  const taken: T[] = [];
  const left: T[] = [];
  const keys = new Set<string>();
  for (const item of items) {
    const key = keyOf(item);
    if (taken.length < max && (key === null || !keys.has(key))) {
      if (key !== null) keys.add(key);
      taken.push(item);
    } else left.push(item);
  }
  return { taken, left };
}
