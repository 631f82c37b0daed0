import type { LoginResponse } from '@allot/domain/auth';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { queryClient } from '../../../lib/query-client';
import { setSession } from '../../../lib/session';
import { returnAfterSignIn } from '../../../lib/session-end';
import { organizationsQueryOptions } from '../../organizations/api/get-organizations';
import { login } from '../api/login';
import { isNoPanelAccess, signInErrorMessage } from '../components/sign-in-error';
import { twoFactorStepOf } from '../two-factor-step';

/**
 * After a successful sign-in: keep the session and go in: back to the page the person was sent here from,
 * else one organization straight into it (spec §4), else the picker.
 */
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
      // Back where a session of theirs ended, or where they were sent to sign in from.
      const back = returnAfterSignIn(answer.userId);
      if (back) {
        await navigate(back, { replace: true });
        return;
      }
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

/** Why a sign-in after an invitation was refused: its text, and whether the person is a teacher. */
export interface SignInRefusal {
  message: string;
  /** `no_panel_access`: a teacher, whose invitation ends there (they sign in to the classroom product). */
  teacher: boolean;
}

/**
 * Signs in with a password the person has just chosen (an invitation finished). Answers null when in, else
 * why sign in was refused (a teacher has no panel access), for the screen to show. A sign-in that asks for a
 * second step (two-factor) goes on on the sign-in screen, with that step.
 */
export function useSignInWithNewPassword() {
  const completeSignIn = useCompleteSignIn();
  const navigate = useNavigate();
  return useCallback(
    async (email: string, password: string): Promise<SignInRefusal | null> => {
      try {
        await completeSignIn(await login({ email, password }));
        return null;
      } catch (cause) {
        const twoFactor = twoFactorStepOf(cause, email);
        if (twoFactor) {
          await navigate('/login', { state: { twoFactor } });
          return null;
        }
        return { message: signInErrorMessage(cause), teacher: isNoPanelAccess(cause) };
      }
    },
    [completeSignIn, navigate],
  );
}
