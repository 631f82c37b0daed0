import { z } from 'zod';
import { intParam } from './pagination';
import { dateTimeOut, emailOut, uuidOut } from './text';

/** Credit use over time (CONTRACT §10): `days` 7–365, default 90. */
export const CREDIT_USAGE_DEFAULT_DAYS = 90;
export const creditUsageQuerySchema = z.object({ days: intParam(7, 365, CREDIT_USAGE_DEFAULT_DAYS) });
export type CreditUsageQuery = z.infer<typeof creditUsageQuerySchema>;

/** The forecast's window: the mean of the last 28 complete UTC days of consumption (decision 014). */
export const FORECAST_WINDOW_DAYS = 28;
/** A forecast further than this is "does not run out in the next year": `runsOutOn` null. */
export const FORECAST_HORIZON_DAYS = 365;

const dateOut = () => z.string().meta({ format: 'date' });

export const creditUsageDaySchema = z.object({
  date: dateOut(),
  /** Credits that entered the subtree: minted into it, or moved in from an organization outside it. */
  received: z.number().int(),
  /** Credits an organization of the subtree gave from its pools to organizations below it and to members. */
  handedDown: z.number().int(),
  /** Credits the classroom product consumed in the subtree. */
  consumed: z.number().int(),
});
export type CreditUsageDay = z.infer<typeof creditUsageDaySchema>;

export const creditForecastSchema = z.object({
  /** Today plus floor(creditsAvailable / meanDailyConsumption) days; null: nothing consumed, or over a year away. */
  runsOutOn: dateOut().nullable(),
  windowDays: z.number().int(),
  meanDailyConsumption: z.number(),
  /** Every credit held in the subtree: its pools and its members' balances (each person once). */
  creditsAvailable: z.number().int(),
});
export type CreditForecast = z.infer<typeof creditForecastSchema>;

export const creditUsageSchema = z
  .object({
    organizationId: uuidOut(),
    from: dateOut(),
    to: dateOut(),
    days: z.array(creditUsageDaySchema),
    forecast: creditForecastSchema,
  })
  .meta({ id: 'CreditUsage' });
export type CreditUsage = z.infer<typeof creditUsageSchema>;

/** `floor(available / mean)` days from `today`, or null (CONTRACT §10). `today` is `YYYY-MM-DD` (UTC). */
export function runsOutOn(
  today: string,
  creditsAvailable: number,
  meanDailyConsumption: number,
): string | null {
  if (!(meanDailyConsumption > 0)) return null;
  const days = Math.floor(creditsAvailable / meanDailyConsumption);
  if (days > FORECAST_HORIZON_DAYS) return null;
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Low-balance alert thresholds (CONTRACT §10): at most 3. */
export const CREDIT_ALERT_KINDS = ['percent_of_last_topup', 'credits'] as const;
export type CreditAlertKind = (typeof CREDIT_ALERT_KINDS)[number];
export const MAX_CREDIT_ALERTS = 3;
export const CREDIT_ALERT_MESSAGES = {
  tooMany: `At most ${MAX_CREDIT_ALERTS} thresholds.`,
  percent: 'A percentage is a whole number from 1 to 99.',
  credits: 'A number of credits is a whole number from 1 to 1000000000.',
  duplicate: 'This threshold is already set.',
  kind: 'Choose percent_of_last_topup or credits.',
  value: 'Enter a whole number.',
  list: 'Give the list of thresholds (an empty list turns the alerts off).',
} as const;

export const creditAlertThresholdSchema = z
  .object({
    kind: z.enum(CREDIT_ALERT_KINDS, { error: CREDIT_ALERT_MESSAGES.kind }),
    value: z.number({ error: CREDIT_ALERT_MESSAGES.value }),
  })
  .superRefine((t, ctx) => {
    const ok =
      Number.isInteger(t.value) &&
      (t.kind === 'percent_of_last_topup' ? t.value >= 1 && t.value <= 99 : t.value >= 1 && t.value <= 1e9);
    if (!ok)
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message:
          t.kind === 'percent_of_last_topup' ? CREDIT_ALERT_MESSAGES.percent : CREDIT_ALERT_MESSAGES.credits,
      });
  });
export type CreditAlertThreshold = z.infer<typeof creditAlertThresholdSchema>;

export const creditAlertsSchema = z
  .object({
    thresholds: z
      .array(creditAlertThresholdSchema, { error: CREDIT_ALERT_MESSAGES.list })
      .max(MAX_CREDIT_ALERTS, CREDIT_ALERT_MESSAGES.tooMany)
      .refine(
        (list) => new Set(list.map((t) => `${t.kind}:${t.value}`)).size === list.length,
        CREDIT_ALERT_MESSAGES.duplicate,
      ),
  })
  .meta({ id: 'CreditAlerts' });
export type CreditAlerts = z.infer<typeof creditAlertsSchema>;

/**
 * The credits a threshold stands for: its number, or its percentage of the shared pool right after the last
 * top-up, rounded down (as the database's alert trigger computes it). 0 never fires.
 */
export function creditAlertLevel(threshold: CreditAlertThreshold, referenceBalance: number | null): number {
  if (threshold.kind === 'credits') return threshold.value;
  return Math.floor(((referenceBalance ?? 0) * threshold.value) / 100);
}

/**
 * What `GET`/`PUT /api/organization/{id}/credit-alerts` answer: `thresholds` as CONTRACT §10 has them, and
 * what the screen needs to explain them (decision 014, "Low-balance alerts: the calls and the mail").
 */
export const creditAlertSettingsSchema = z
  .object({
    thresholds: z.array(z.object({ kind: z.enum(CREDIT_ALERT_KINDS), value: z.number().int() })),
    organizationId: uuidOut(),
    /** The shared pool now. */
    sharedCredits: z.number().int(),
    /** The shared pool right after its last top-up (or when the thresholds were set); null: never set. */
    referenceBalance: z.number().int().nullable(),
    /** One per threshold, in the same order: its level in credits and whether it fired since the last top-up. */
    levels: z.array(
      z.object({
        kind: z.enum(CREDIT_ALERT_KINDS),
        value: z.number().int(),
        level: z.number().int(),
        fired: z.boolean(),
      }),
    ),
    /** When the thresholds were last saved; null: never. */
    updatedAt: dateTimeOut().nullable(),
  })
  .meta({ id: 'CreditAlertSettings' });
export type CreditAlertSettings = z.infer<typeof creditAlertSettingsSchema>;

/**
 * Seat use of an organization's own licences (issue 16; decision 014): per licence and UTC day, the seats
 * used and the maximum, and the seat holders who have not consumed credits for `IDLE_SEAT_DAYS` days.
 * `GET /api/organization/{id}/license-usage?days=` (needs `view_audit_logs`, like the rest of CONTRACT §10).
 */
export const IDLE_SEAT_DAYS = 30;
export const IDLE_SEAT_LIST_LIMIT = 100;
export const licenseUsageQuerySchema = creditUsageQuerySchema;

export const licenseUsageSchema = z
  .object({
    organizationId: uuidOut(),
    from: dateOut(),
    to: dateOut(),
    licenses: z.array(
      z.object({
        licenseId: uuidOut(),
        licenseType: z.string(),
        /** One per UTC day from `from` to `to`, leaving out the days before the licence's first record. */
        days: z.array(z.object({ date: dateOut(), used: z.number().int(), maxUsers: z.number().int() })),
        idle: z.object({
          /**
           * Every member holding a seat of the licence, a member for at least IDLE_SEAT_DAYS days, with no
           * consumption in this organization in the last IDLE_SEAT_DAYS days (pending invitations are not counted).
           */
          count: z.number().int(),
          /** The first IDLE_SEAT_LIST_LIMIT of them, longest idle first (never used first). */
          users: z.array(
            z.object({
              id: uuidOut(),
              name: z.string(),
              email: emailOut(),
              /** null: never consumed in this organization. */
              lastUsedOn: dateOut().nullable(),
            }),
          ),
        }),
      }),
    ),
  })
  .meta({ id: 'LicenseUsage' });
export type LicenseUsage = z.infer<typeof licenseUsageSchema>;
