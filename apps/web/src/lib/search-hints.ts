/**
 * What the search boxes say they match (CONTRACT §1, Search): every word typed must be the start of a
 * word of the name or email, whatever its case and accents ('gar' finds "Ava García", 'arci' does not).
 * One text per kind of list, the same on every screen and picker.
 */
export const SEARCH_HINT = {
  users: 'Search by name or email: start of a word',
  organizations: 'Search by name: start of a word',
  /** Home: organizations and users at once. */
  everything: 'Search organizations by name, users by name or email: start of a word',
} as const;

/** Lower case without accents: 'García' and 'GARCIA' read the same. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const WORD_START = /(?<![\p{L}\p{N}])[\p{L}\p{N}]/gu;

/**
 * The server's search rule for a text the client already holds (the current organization offered in a
 * picker beside the server's results): every whitespace-separated term starts a word of `text`.
 */
export function matchesWordStarts(text: string, search: string): boolean {
  const folded = fold(text);
  const starts = [...folded.matchAll(WORD_START)].map((match) => match.index);
  return fold(search)
    .split(/\s+/)
    .filter((term) => term !== '')
    .every((term) => starts.some((start) => folded.startsWith(term, start)));
}
