import { api } from '../../../lib/api-client';

/** POST /api/auth/logout: revokes the token server-side. */
export function logout(): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/auth/logout', undefined, { auth: true });
}
