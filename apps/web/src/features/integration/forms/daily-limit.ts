import { creditAmountSchema } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import { z } from 'zod';
import { formatCount, formatCountOf } from '../../../lib/format';
import { typedValue } from '../../../lib/numbers';

/**
 * General information's 'Daily limit' field: empty is no limit (null); anything else is a whole number of
 * credits above zero, read as the credit dialogs read an amount ("1,500" too), with the same messages as the
 * server's answer to a wrong value (`updateIntegrationSettingsRequestSchema` uses the same credit amount).
 */
export const dailyLimitField = z.string().transform((text, ctx): number | null => {
  if (text.trim() === '') return null;
  const parsed = creditAmountSchema.safeParse(typedValue(text));
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? MSG.invalidNumber });
  return z.NEVER;
});

export const dailyLimitFormSchema = z.object({ dailyConsumptionLimit: dailyLimitField });
export type DailyLimitValues = z.input<typeof dailyLimitFormSchema>;

/** The field's text for a saved limit: the number as typed back, or empty for no limit. */
export function dailyLimitText(limit: number | null): string {
  return limit === null ? '' : String(limit);
}

/**
 * Where the day stands: "1 credit used today", and with a limit what is left of it, "1,204 credits used
 * today, 3,796 left" (none left when a limit was set below what was already used).
 */
export function consumedTodayText(consumed: number, limit: number | null): string {
  const used = `${formatCountOf(consumed, 'credit', 'credits')} used today`;
  return limit === null ? used : `${used}, ${formatCount(Math.max(0, limit - consumed))} left`;
}

/** What the success notice says of the saved limit. */
export function savedLimitText(limit: number | null, organizationName: string): string {
  return limit === null
    ? `${organizationName} has no daily limit: the classroom product may consume any credits its members have.`
    : `The classroom product may consume at most ${formatCountOf(limit, 'credit', 'credits')} a day in ${organizationName}.`;
}
