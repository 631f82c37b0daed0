import { api } from '../../../lib/api-client';

/** POST /api/auth/validate {id, email} → {valid}: true only for a live token of that user. */
export async function validateSession(id: string, email: string): Promise<boolean> {
  const result = await api.post<{ valid: boolean }>('/auth/validate', { id, email });
  return result?.valid === true;
}
