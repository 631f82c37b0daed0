import { generate } from 'otplib';

/**
 * The code an authenticator app shows for this secret now, or `stepsAway` 30-second steps from now (computed
 * with otplib, as an app would: the tests never ask the server for a code).
 */
export function totpCode(secret: string, stepsAway = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAway * 30 });
}

/** The code of one 30-second time step (RFC 6238's T). */
export function totpCodeAt(secret: string, step: number): Promise<string> {
  return generate({ secret, epoch: step * 30 });
}
