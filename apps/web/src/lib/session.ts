// First: the session is parsed on import, and zod must know before its first parse (zod-config.ts).
import './zod-config';
import { SIGNED_OUT_SESSION, type UserSession, userSessionSchema } from '@allot/domain/auth';
import { useSyncExternalStore } from 'react';

/** The user session of spec §3, persisted in localStorage (spec §9). */
const STORAGE_KEY = 'allot.session';

type Listener = () => void;
const listeners = new Set<Listener>();

function read(): UserSession {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return SIGNED_OUT_SESSION;
    const parsed = userSessionSchema.safeParse(JSON.parse(raw));
    return parsed.success ? normalize(parsed.data) : SIGNED_OUT_SESSION;
  } catch {
    return SIGNED_OUT_SESSION;
  }
}

/** Signed in exactly when the user id and email are set (spec §4). */
function normalize(session: UserSession): UserSession {
  const signedIn = Boolean(session.userId && session.userEmail);
  return signedIn ? { ...session, signedIn } : SIGNED_OUT_SESSION;
}

let current: UserSession = read();

function write(next: UserSession): void {
  current = normalize(next);
  try {
    if (current.signedIn) window.localStorage.setItem(STORAGE_KEY, JSON.stringify(current));
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode, quota); the in-memory session still works.
  }
  for (const listener of listeners) listener();
}

export function getSession(): UserSession {
  return current;
}

export function isSignedIn(): boolean {
  return current.signedIn;
}

export function setSession(next: Omit<UserSession, 'signedIn'>): void {
  write({ ...next, signedIn: true });
}

export function updateSession(patch: Partial<Pick<UserSession, 'role' | 'permissions' | 'userEmail'>>): void {
  if (!current.signedIn) return;
  const next = { ...current, ...patch };
  const unchanged =
    next.role === current.role &&
    next.userEmail === current.userEmail &&
    next.permissions.length === current.permissions.length &&
    next.permissions.every((p, i) => p === current.permissions[i]);
  if (!unchanged) write(next);
}

/** Sign-out and failed validation: role back to 'user', permissions emptied (spec §4). */
export function clearSession(): void {
  write(SIGNED_OUT_SESSION);
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY && event.key !== null) return;
    current = read();
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): UserSession {
  return useSyncExternalStore(subscribe, getSession, getSession);
}
