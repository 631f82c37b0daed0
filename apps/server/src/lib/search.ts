/** A user's search text as an ILIKE pattern that matches it literally, anywhere in the column. */
export function containsPattern(search: string): string {
  return `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
