import type { LoginResponse } from '@allot/domain/auth';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { queryClient } from '../../../lib/query-client';
import { setSession } from '../../../lib/session';
import { organizationsQueryOptions } from '../../organizations/api/get-organizations';

/** After a successful sign-in: keep the session and go in (one organization: straight into it, spec §4). */
export function useCompleteSignIn() {
  const navigate = useNavigate();
  return useCallback(
    async (answer: LoginResponse) => {
      queryClient.clear();
      setSession({
        secToken: answer.secToken,
        userId: answer.userId,
        userEmail: answer.userEmail,
        role: answer.role,
        permissions: [],
      });
      // If the list fails, the picker shows it.
      try {
        const organizations = await queryClient.fetchQuery(organizationsQueryOptions());
        const only = organizations.length === 1 ? organizations[0] : undefined;
        await navigate(only ? `/${encodeURIComponent(only.id)}` : '/', { replace: true });
      } catch {
        await navigate('/', { replace: true });
      }
    },
    [navigate],
  );
}
