import { MSG } from '@allot/domain/messages';
import type { z } from 'zod';
import { formatCount, formatCountOf } from '../../../lib/format';

/**
 * The most each of `count` parties may get from `available` credits: an amount above it is refused before
 * sending, as it is typed, with the spec's "Number must be less than or equal to {count}." and the number
 * written as the dialog writes it ("20,000").
 */
export function mostEach(available: number, count: number): number {
  return count > 0 ? Math.floor(available / count) : available;
}

export function checkAvailable(
  ctx: z.RefinementCtx,
  amount: number,
  available: number,
  count = 1,
  path: string[] = ['amount'],
): void {
  const most = mostEach(available, count);
  if (amount > most) ctx.addIssue({ code: 'custom', path, message: MSG.max(formatCount(most)) });
}

/** "100 credits", "1 credit". */
export function credits(count: number): string {
  return formatCountOf(count, 'credit', 'credits');
}
