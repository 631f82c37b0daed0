import { notifications } from '@mantine/notifications';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { queryClient } from '../../../lib/query-client';
import { clearSession } from '../../../lib/session';
import { forgetSessionEnd } from '../../../lib/session-end';
import { logout } from '../api/logout';

/** Sign out: revoke the token (its failure changes nothing for the person), clear the session, go to sign-in. */
export function useSignOut() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const signOut = useCallback(async () => {
    setPending(true);
    try {
      await logout();
    } catch {
      // The session ends locally whatever the server says.
    }
    clearSession();
    // Signed out on purpose: the next sign-in starts afresh, with no page to go back to.
    forgetSessionEnd();
    setPending(false);
    // Leave the dashboard before dropping its cached data, so no mounted screen refetches without a session.
    await navigate('/login', { replace: true });
    queryClient.clear();
    notifications.show({ message: 'You have signed out.', color: 'gray' });
  }, [navigate]);
  return { signOut, pending };
}
