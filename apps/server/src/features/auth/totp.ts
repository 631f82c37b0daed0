import { TOTP_ISSUER } from '@allot/domain/mfa';
import { generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238's defaults, which every authenticator app reads from the QR code: SHA-1, 6 digits, 30 s. */
const PERIOD_SECONDS = 30;

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), in base32. */
export function newTotpSecret(): string {
  return generateSecret();
}

export function otpauthUrl(email: string, secret: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret });
}

/**
 * The time step a code is right for, or null. One step either side of now is accepted (a phone's clock a
 * little off, a code typed as it changed); a step at or before `afterStep` (the last one used) is refused,
 * so each code works once.
 */
export async function totpStep(
  secret: string,
  code: string,
  afterStep: number | null,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epochTolerance: PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  // The functional verify answers HOTP's result type too; a TOTP result carries its step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
