import { isApiError } from '../../lib/api-error';

/** The second step a sign-in asked for (CONTRACT §3): a code, or setting two-factor up first. */
export interface TwoFactorStep {
  kind: 'code' | 'setup';
  challenge: string;
  email: string;
}

/** The step of a sign-in answered `403 mfa_required` or `mfa_setup_required`; null for any other answer. */
export function twoFactorStepOf(error: unknown, email: string): TwoFactorStep | null {
  if (!isApiError(error) || error.status !== 403) return null;
  const challenge = error.details?.challenge;
  if (typeof challenge !== 'string') return null;
  if (error.code === 'mfa_required') return { kind: 'code', challenge, email };
  if (error.code === 'mfa_setup_required') return { kind: 'setup', challenge, email };
  return null;
}

/** A step handed to the sign-in screen through the router's state (a sign-in made elsewhere asked for it). */
export function twoFactorStepIn(state: unknown): TwoFactorStep | null {
  const step = (state as { twoFactor?: Partial<TwoFactorStep> } | null)?.twoFactor;
  if (!step || typeof step.challenge !== 'string' || typeof step.email !== 'string') return null;
  if (step.kind !== 'code' && step.kind !== 'setup') return null;
  return { kind: step.kind, challenge: step.challenge, email: step.email };
}
