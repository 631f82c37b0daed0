import { creditAmountSchema } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import { z } from 'zod';
import { formatCount } from '../../../lib/format';

const GROUPED = /^[+-]?\d{1,3}(?:[, ]\d{3})+(?:\.\d*)?$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * What a typed amount is, for the domain's amount rules: a number when the text is one ("1,500" and
 * "1 500" too: thousands grouped as the app shows them), else the text itself ("only numbers").
 */
export function amountValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const plain = GROUPED.test(trimmed) ? trimmed.replace(/[, ]/g, '') : trimmed;
  return NUMBER.test(plain) ? Number(plain) : trimmed;
}

/** The amount field of a credit dialog: text in, a whole number of credits out, with the spec's messages. */
export const amountField = z.string().transform((text, ctx) => {
  const parsed = creditAmountSchema.safeParse(amountValue(text));
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? MSG.invalidNumber });
  return z.NEVER;
});

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

/** "1 organization", "3 organizations". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** "100 credits", "1 credit". */
export function credits(count: number): string {
  return plural(count, 'credit');
}
