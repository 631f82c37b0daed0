import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router';
import { readSearch, withParams } from './list-params';

/** Marks, in the history entry's state, an entry that a search box wrote: typing on replaces it. */
const TYPING = 'listTyping';

type Changes = Record<string, string | null>;

function stateWithout(state: unknown): Record<string, unknown> | null {
  if (typeof state !== 'object' || state === null) return null;
  const { [TYPING]: _typing, ...rest } = state as Record<string, unknown>;
  return Object.keys(rest).length > 0 ? rest : null;
}

/**
 * The state and query string of the history entry the browser is on now. React Router renders navigations
 * in a transition: while a screen waits for data, the rendered location can be the one before, and a write
 * from it would lose a change just made, or push where it should replace.
 */
function currentEntry(fallbackState: unknown, fallbackParams: URLSearchParams) {
  if (typeof window === 'undefined') return { state: fallbackState, params: fallbackParams };
  const entry = window.history.state as { usr?: unknown } | null;
  return {
    state: entry && 'usr' in entry ? entry.usr : fallbackState,
    params: new URLSearchParams(window.location.search),
  };
}

/**
 * The URL's query parameters and a way to change some of them, keeping the others, the path and the
 * entry's other state (Home's "asked for the picker", lib/home-link.ts).
 * - `push`: a page or sort change, a new history entry: Back goes to the list as it was.
 * - `typed`: a search box's debounced text: the first one pushes an entry, the next ones replace it while
 *   the person types on, so that Back leaves the search in one step, not one per pause in typing.
 */
export function useListUrl() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  /** Whether it wrote: never while the screen is being left, since a write would cancel that navigation. */
  const write = (changes: Changes, how: 'push' | 'typed', searchName = ''): boolean => {
    if (navigation.location && navigation.location.pathname !== location.pathname) return false;
    const now = currentEntry(location.state, params);
    const kept = stateWithout(now.state);
    const typingHere =
      how === 'typed' &&
      typeof now.state === 'object' &&
      now.state !== null &&
      (now.state as Record<string, unknown>)[TYPING] === searchName;
    setParams(withParams(now.params, changes), {
      replace: typingHere,
      state: how === 'typed' ? { ...kept, [TYPING]: searchName } : kept,
      preventScrollReset: true,
    });
    return true;
  };
  return { params, write };
}

/**
 * A search box whose text lives in the URL (`name`, e.g. `q`): what the box shows, and `inUrl`, the trimmed
 * text the lists are asked for. Typing writes the debounced text (300 ms) and `clears` (the pages); a URL
 * changed by Back, Forward or a link is shown in the box.
 */
export function useUrlSearch(name: string, clears: readonly string[]) {
  const { params, write } = useListUrl();
  const inUrl = readSearch(params, name);
  const [search, setSearch] = useState(inUrl);
  const [debounced] = useDebouncedValue(search.trim(), 300);

  // What this box wrote and the rendered URL has not shown yet, oldest first: to tell its own writes from
  // Back, Forward and links. (Navigations render in a transition: the rendered URL can lag behind.)
  const pending = useRef<string[]>([]);
  useEffect(() => {
    const own = pending.current.indexOf(inUrl);
    if (own >= 0) {
      pending.current = pending.current.slice(own + 1);
      return;
    }
    pending.current = [];
    setSearch((shown) => (shown.trim() === inUrl ? shown : inUrl));
  }, [inUrl]);

  const lastDebounced = useRef(debounced);
  // `write` is a new function on every render: the guard runs the write once per new debounced text.
  useEffect(() => {
    if (lastDebounced.current === debounced) return;
    lastDebounced.current = debounced;
    const shown =
      typeof window === 'undefined' ? inUrl : readSearch(new URLSearchParams(window.location.search), name);
    if (debounced === shown) return;
    const changes = Object.fromEntries([[name, debounced || null], ...clears.map((c) => [c, null])]);
    if (write(changes, 'typed', name)) pending.current.push(debounced);
  });

  return { search, setSearch, inUrl };
}
