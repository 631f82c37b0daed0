import { redirect } from 'react-router';
import { validateSession } from '../../features/auth/api/validate-session';
import { isApiError } from '../../lib/api-error';
import { clearSession, getSession } from '../../lib/session';
import { rememberSessionEnd } from '../../lib/session-end';

let inflight: Promise<boolean> | null = null;

/**
 * Validates the stored session with the server (spec §2 Guards). Concurrent callers of one
 * navigation (the protected layout and the organization loader) share one request.
 */
export function ensureValidSession(): Promise<boolean> {
  if (inflight) return inflight;
  const { signedIn, userId, userEmail } = getSession();
  if (!signedIn || !userId || !userEmail) return Promise.resolve(false);
  inflight = validateSession(userId, userEmail)
    .catch((error: unknown) => {
      // A 401 means the token is dead: the session is invalid. Anything else is a real failure.
      if (isApiError(error) && error.status === 401) return false;
      throw error;
    })
    .then((valid) => {
      if (!valid) clearSession();
      return valid;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/**
 * Loader of every protected route: no valid session → sign-in screen, which then takes the person back to
 * this page (and says so when a session of theirs had ended: issue 33).
 */
export async function requireAuthLoader({ request }: { request: Request }): Promise<null> {
  const { signedIn, userId, userEmail } = getSession();
  if (!(await ensureValidSession())) {
    const url = new URL(request.url);
    rememberSessionEnd({
      from: `${url.pathname}${url.search}`,
      userId: userId ?? null,
      email: signedIn ? (userEmail ?? null) : null,
      ended: signedIn,
      unsavedChange: false,
    });
    throw redirect('/login');
  }
  return null;
}

/** Loader of the signed-out-only routes: a signed-in user is sent home. */
export function signedOutOnlyLoader(): null {
  if (getSession().signedIn) throw redirect('/');
  return null;
}
