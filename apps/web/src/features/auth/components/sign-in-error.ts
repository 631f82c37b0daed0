import { MSG } from '@allot/domain/messages';
import { isApiError } from '../../../lib/api-error';

/** Sign in refused a teacher (CONTRACT §2: no panel access). */
export function isNoPanelAccess(error: unknown): boolean {
  return isApiError(error) && error.status === 403 && error.code === 'no_panel_access';
}

/** The text shown for a failed sign-in (spec §8, CONTRACT §3). */
export function signInErrorMessage(error: unknown): string {
  if (!isApiError(error)) return MSG.somethingWentWrong;
  if (error.status === 401) return MSG.signInFailed;
  if (error.status === 403 && error.code === 'not_verified') return MSG.notVerified;
  if (error.status === 403 && error.code === 'no_panel_access') return error.message;
  if (error.status === 429) return error.message;
  return MSG.somethingWentWrong;
}
