/**
 * Where a person was when they were sent to the sign-in screen, kept for the sign-in to take them back
 * (issue 33): the page, whose session it was (id and email), whether a session ended there (else they were never signed
 * in) and whether a change of theirs was refused with it. Kept in sessionStorage: this tab only, gone
 * with it.
 */
export interface SessionEnd {
  from: string;
  userId: string | null;
  /** Whose session it was, for the sign-in to fill in again (kept beside the id, this tab only). */
  email: string | null;
  ended: boolean;
  /** A write was answered 401: the server checks the session before anything, so it was not made. */
  unsavedChange: boolean;
}

const STORAGE_KEY = 'allot.sessionEnd';

function isSessionEnd(value: unknown): value is SessionEnd {
  const v = value as Partial<SessionEnd> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.from === 'string' &&
    (v.userId === null || typeof v.userId === 'string') &&
    (v.email === null || typeof v.email === 'string') &&
    typeof v.ended === 'boolean' &&
    typeof v.unsavedChange === 'boolean'
  );
}

export function sessionEnd(): SessionEnd | null {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    return isSessionEnd(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Remembers where the person was. Several calls refused at once (a page's reads and a change) make one end:
 * a refused change is not forgotten by a read refused after it.
 */
export function rememberSessionEnd(end: SessionEnd): void {
  const before = sessionEnd();
  const same = before && before.from === end.from;
  const merged: SessionEnd = same
    ? {
        ...end,
        userId: end.userId ?? before.userId,
        email: end.email ?? before.email,
        ended: end.ended || before.ended,
        unsavedChange: end.unsavedChange || before.unsavedChange,
      }
    : end;
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(merged));
  } catch {
    // Storage refused (private mode, full): the sign-in then goes home, as before.
  }
}

export function forgetSessionEnd(): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing kept
  }
}

/**
 * A page of this app to go back to: a path of this origin, not the sign-in screen itself, nor Home (the sign-in
 * goes there anyway, straight into a person's only organization: spec §4).
 */
export function returnPath(from: string): string | null {
  if (!from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return null;
  const path = from.split(/[?#]/)[0] ?? '';
  if (path === '/' || path === '/login' || path.startsWith('/login/')) return null;
  return from;
}

/** Where the person signing in should land: back where they were, if it was their own session. */
export function returnAfterSignIn(userId: string): string | null {
  const end = sessionEnd();
  forgetSessionEnd();
  if (!end || (end.userId !== null && end.userId !== userId)) return null;
  return returnPath(end.from);
}
