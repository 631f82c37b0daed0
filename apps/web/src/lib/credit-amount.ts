import { creditAmountSchema } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import { z } from 'zod';
import { typedValue } from './numbers';

/**
 * A typed amount of credits (a credit dialog, a request, a daily limit): text in, a whole number of credits
 * out, read by the one rule of `numbers.ts` ("1,500" and "1 500" too) and judged by the domain's credit
 * amount, with the spec's messages.
 */
export const amountField = z.string().transform((text, ctx) => {
  const parsed = creditAmountSchema.safeParse(typedValue(text));
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? MSG.invalidNumber });
  return z.NEVER;
});
