import { resendVerification } from '../api/resend-verification';
import { ResendCode } from './resend-code';

interface ResendVerificationProps {
  email: string;
  label?: string;
}

/** "Resend verification": a new code to an address that is not verified yet (the answer never tells). */
export function ResendVerification({ email, label = 'Resend verification email' }: ResendVerificationProps) {
  return <ResendCode email={email} label={label} send={() => resendVerification({ email })} />;
}
