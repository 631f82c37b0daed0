import type { LoginRequest, LoginResponse } from '@allot/domain/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/auth/login (CONTRACT §3): a public call, so a 401 means wrong credentials. */
export function login(body: LoginRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>('/auth/login', body, { auth: false });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
