import type { NewSession } from '../../apps/server/src/features/auth/sessions';

/** A bench's sessions are made directly, as a password sign-in makes them (SESSION_MAX_DAYS' default). */
export const BENCH_SESSION: NewSession = { usedMfa: false, maxDays: 30 };
