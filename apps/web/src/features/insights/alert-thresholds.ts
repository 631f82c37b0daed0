import {
  CREDIT_ALERT_MESSAGES,
  type CreditAlertKind,
  type CreditAlertThreshold,
  creditAlertsSchema,
} from '@allot/domain/insights';
import { formatCountOf } from '../../lib/format';
import { typedNumber } from '../../lib/numbers';

/** A threshold as the form holds it: the value as typed. */
export interface ThresholdRow {
  kind: CreditAlertKind;
  value: string;
}

export const KIND_LABEL: Record<CreditAlertKind, string> = {
  percent_of_last_topup: 'Percent of the last top-up',
  credits: 'Credits',
};

export const toRows = (thresholds: readonly CreditAlertThreshold[]): ThresholdRow[] =>
  thresholds.map((t) => ({ kind: t.kind, value: String(t.value) }));

/** "10 % of the last top-up", "500 credits": a threshold in words. */
export function thresholdText(t: CreditAlertThreshold): string {
  return t.kind === 'percent_of_last_topup'
    ? `${t.value} % of the last top-up`
    : formatCountOf(t.value, 'credit', 'credits');
}

export type ThresholdCheck =
  | { ok: true; thresholds: CreditAlertThreshold[] }
  | { ok: false; rowErrors: (string | null)[]; formError: string | null };

/**
 * The form's rows checked with the domain's schema (the server's own rules and messages): a message per row
 * whose value is not one, and the list's own (too many, the same threshold twice).
 */
export function checkThresholds(rows: readonly ThresholdRow[]): ThresholdCheck {
  const thresholds = rows.map((r) => ({
    kind: r.kind,
    value: typedNumber(r.value) ?? Number.NaN,
  }));
  const parsed = creditAlertsSchema.safeParse({ thresholds });
  if (parsed.success) return { ok: true, thresholds: parsed.data.thresholds };
  const rowErrors: (string | null)[] = rows.map(() => null);
  let formError: string | null = null;
  for (const issue of parsed.error.issues) {
    const [, index] = issue.path;
    if (typeof index === 'number' && rowErrors[index] === null) {
      rowErrors[index] =
        rows[index]?.kind === 'percent_of_last_topup'
          ? CREDIT_ALERT_MESSAGES.percent
          : CREDIT_ALERT_MESSAGES.credits;
    } else if (typeof index !== 'number') formError = issue.message;
  }
  return { ok: false, rowErrors, formError };
}
