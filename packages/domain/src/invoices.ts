import { z } from 'zod';
import { CREDIT_POOLS, type CreditPool } from './credits';
import { MSG } from './messages';
import { LICENSE_TYPE_LABEL, LICENSE_TYPES, type LicenseType } from './organizations';
import { pageOf, paginationQuerySchema } from './pagination';
import { dateTimeOut, emailOut, emailSchema, idSchema, singleLineText, text, uuidOut } from './text';

/** Invoices and the price list (CONTRACT §7, decision 010). Money is integer minor units plus a currency. */

export const INVOICE_KINDS = ['new_license', 'extend_license', 'add_users', 'credits'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
/** What a kind of invoice buys, in words (the audit log's "kind"). */
export const INVOICE_KIND_LABEL: Record<InvoiceKind, string> = {
  new_license: 'New licence',
  extend_license: 'Extension',
  add_users: 'More seats',
  credits: 'Credits',
};

/** Spec §9: the licence periods an invoice offers. */
export const INVOICE_PERIODS = ['3m', '6m', '1y', '2y'] as const;
export type InvoicePeriod = (typeof INVOICE_PERIODS)[number];
export const PERIOD_MONTHS: Record<InvoicePeriod, number> = { '3m': 3, '6m': 6, '1y': 12, '2y': 24 };
export const PERIOD_LABEL: Record<InvoicePeriod, string> = {
  '3m': '3 months',
  '6m': '6 months',
  '1y': '1 year',
  '2y': '2 years',
};

export const INVOICE_STATUSES = ['open', 'fulfilled', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_STATUS_LABEL: Record<InvoiceStatus, string> = {
  open: 'Open',
  fulfilled: 'Fulfilled',
  void: 'Void',
};

export const FULFILMENT_METHODS = ['payment', 'paid_out_of_band', 'free'] as const;
export type FulfilmentMethod = (typeof FULFILMENT_METHODS)[number];
/** Spec §4: the fulfilment options by their texts. */
export const FULFILMENT_LABEL: Record<FulfilmentMethod, string> = {
  payment: 'Fulfil',
  paid_out_of_band: 'Paid another way',
  free: 'Fulfil for free',
};

/**
 * Bought credits land in the pool the buyer chose (issue 33), the shared one unless they choose otherwise: that is
 * where teachers draw from and what the low-balance alerts watch (decision 010).
 */
export const DEFAULT_PURCHASE_POOL: CreditPool = 'shared';
/** Credits invoices made before the buyer chose a pool go to the protected pool, as they said they would. */
export const EARLIER_PURCHASES_POOL: CreditPool = 'protected';

/** Days from creation to the due date. */
export const INVOICE_DUE_DAYS = 30;
/** Seats one invoice may buy, and the price bound that keeps every amount a safe integer. */
export const MAX_INVOICE_SEATS = 100_000;
export const MAX_PRICE = 100_000_000;
export const MAX_CREDIT_PACKS = 12;

const currencySchema = text()
  .regex(/^[A-Z]{3}$/, 'Enter a three-letter currency code, such as USD.')
  .describe('ISO 4217 code');
const priceSchema = z
  .number()
  .int(MSG.invalidNumber)
  .min(0, MSG.min(0))
  .max(MAX_PRICE, MSG.max(MAX_PRICE))
  .describe('Minor units of the currency (cents)');
const creditsInPackSchema = z
  .number()
  .int(MSG.invalidNumber)
  .min(1, MSG.min(1))
  .max(100_000_000, MSG.max(100_000_000));

export const licensePriceSchema = z
  .object({
    licenseType: z.enum(LICENSE_TYPES),
    pricePerSeatMonth: priceSchema,
    hasFreeTier: z.boolean(),
  })
  .meta({ id: 'LicensePrice' });
export type LicensePrice = z.infer<typeof licensePriceSchema>;

export const creditPackSchema = z
  .object({ credits: creditsInPackSchema, price: priceSchema })
  .meta({ id: 'CreditPack' });
export type CreditPack = z.infer<typeof creditPackSchema>;

/** GET /api/invoice/products; PUT takes the same shape (every licence type once, packs of distinct sizes). */
export const priceListSchema = z
  .object({
    currency: currencySchema,
    licenses: z
      .array(licensePriceSchema)
      .refine(
        (items) =>
          items.length === LICENSE_TYPES.length &&
          new Set(items.map((i) => i.licenseType)).size === LICENSE_TYPES.length,
        'Give every licence type a price, once.',
      ),
    creditPacks: z
      .array(creditPackSchema)
      .max(MAX_CREDIT_PACKS, `At most ${MAX_CREDIT_PACKS} credit packs.`)
      .refine(
        (packs) => new Set(packs.map((p) => p.credits)).size === packs.length,
        'Each pack needs its own size.',
      ),
  })
  .meta({ id: 'PriceList' });
export type PriceList = z.infer<typeof priceListSchema>;

const quantitySchema = z
  .number()
  .int(MSG.invalidNumber)
  .min(1, MSG.min(1))
  .max(MAX_INVOICE_SEATS, MSG.max(MAX_INVOICE_SEATS));

/** What each kind needs besides the organization and the customer's email. */
export const INVOICE_KIND_FIELDS: Record<InvoiceKind, readonly string[]> = {
  new_license: ['licenseType', 'period', 'usersQuantity'],
  extend_license: ['licenseId', 'period'],
  add_users: ['licenseId', 'usersQuantity'],
  credits: ['credits'],
};

/** The longest purchase-order number an invoice keeps. */
export const PURCHASE_ORDER_MAX = 60;

/** POST /api/invoice/create (CONTRACT §7): the server computes the amount. */
export const createInvoiceRequestSchema = z
  .object({
    organizationId: idSchema,
    kind: z.enum(INVOICE_KINDS),
    licenseType: z.enum(LICENSE_TYPES).optional().describe('new_license'),
    licenseId: idSchema.optional().describe('extend_license and add_users'),
    period: z.enum(INVOICE_PERIODS).optional().describe('new_license and extend_license'),
    usersQuantity: quantitySchema.optional().describe('new_license and add_users: seats to buy'),
    credits: creditsInPackSchema.optional().describe('credits: the size of one of the price list’s packs'),
    customerEmail: emailSchema,
    purchaseOrder: singleLineText()
      .max(PURCHASE_ORDER_MAX, `At most ${PURCHASE_ORDER_MAX} characters.`)
      .optional()
      .describe('The buyer’s purchase-order number, shown on the invoice'),
    creditPool: z
      .enum(CREDIT_POOLS, { error: 'Choose the shared or the protected pool.' })
      .optional()
      .describe(
        'credits only: the pool of the organization the credits go to once the invoice is fulfilled; `shared` (teachers draw on it) when left out',
      ),
  })
  .superRefine((input, ctx) => {
    for (const field of INVOICE_KIND_FIELDS[input.kind]) {
      if (input[field as keyof typeof input] === undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: MSG.required });
      }
    }
    if (input.creditPool !== undefined && input.kind !== 'credits') {
      ctx.addIssue({ code: 'custom', path: ['creditPool'], message: INVOICE_MSG.poolOnlyForCredits });
    }
  })
  .meta({ id: 'CreateInvoice' });
export type CreateInvoiceRequest = z.infer<typeof createInvoiceRequestSchema>;

export const fulfilInvoiceRequestSchema = z
  .object({ method: z.enum(FULFILMENT_METHODS) })
  .meta({ id: 'FulfilInvoice' });
export type FulfilInvoiceRequest = z.infer<typeof fulfilInvoiceRequestSchema>;

export const invoiceSchema = z
  .object({
    id: uuidOut(),
    number: z
      .string()
      .describe(
        'INV-{code}-{0001}: the organization’s own code (six random letters and digits) and its own sequence, without gaps. Invoices created before issue 30 keep INV-{year}-{six digits}.',
      ),
    organizationId: uuidOut(),
    organizationName: z.string(),
    organizationDeleted: z
      .boolean()
      .describe(
        'The organization was deleted: its invoices stay, listed under the nearest live organization above it.',
      ),
    status: z.enum(INVOICE_STATUSES),
    kind: z.enum(INVOICE_KINDS),
    licenseType: z.enum(LICENSE_TYPES).nullable(),
    licenseId: uuidOut().nullable(),
    period: z.enum(INVOICE_PERIODS).nullable(),
    credits: z.number().int().nullable(),
    description: z.string().describe('What the invoice buys, in words'),
    customerEmail: emailOut(),
    purchaseOrder: z.string().nullable().describe('The buyer’s purchase-order number; null without one'),
    creditPool: z
      .enum(CREDIT_POOLS)
      .nullable()
      .describe(
        'A credits invoice: the pool its credits go to when it is fulfilled, as the buyer chose (`protected` for invoices made before the choice existed); null for the other kinds',
      ),
    mailed: z
      .boolean()
      .describe(
        'Whether the invoice was mailed to `customerEmail` when it was created: false when that address is none of the organization’s owners and admins and the organization had already mailed INVOICE_MAILS_PER_DAY (20) invoices to such addresses in the last 24 hours. The invoice is created either way.',
      ),
    amount: z.number().int().describe('Minor units of `currency`'),
    currency: z.string(),
    createdAt: dateTimeOut(),
    dueDate: dateTimeOut(),
    licenseExpirationDays: z
      .number()
      .int()
      .nullable()
      .describe('Days of licence the invoice pays for (a period, or the days left for added seats)'),
    extendUsersQuantity: z.number().int().nullable().describe('Seats an extension covers'),
    newUsersQuantity: z.number().int().nullable().describe('Seats a new licence or an addition buys'),
    fulfilmentMethod: z.enum(FULFILMENT_METHODS).nullable(),
    fulfilledAt: dateTimeOut().nullable(),
    voidedAt: dateTimeOut().nullable(),
    createdBy: z.object({ id: uuidOut(), name: z.string(), email: emailOut() }).nullable(),
    payee: z
      .string()
      .nullable()
      .describe(
        'Who the invoice is paid to: the installation’s INVOICE_PAYEE as it is set when the invoice is read (the same on every invoice); null when it is not set',
      ),
    paymentInstructions: z
      .string()
      .nullable()
      .describe(
        'How to pay (a bank transfer’s details, lines separated by line breaks): the installation’s INVOICE_PAYMENT_INSTRUCTIONS as it is set when the invoice is read; null when it is not set',
      ),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof invoiceSchema>;

export const INVOICE_SORT_KEYS = ['number', 'createdAt', 'dueDate', 'amount', 'status'] as const;
export type InvoiceSortKey = (typeof INVOICE_SORT_KEYS)[number];
export const invoiceListQuerySchema = paginationQuerySchema(INVOICE_SORT_KEYS);
/** GET /api/invoices (CONTRACT §7, the billing queue): every organization's invoices, for system admins. */
export const billingQueueQuerySchema = invoiceListQuerySchema.extend({
  status: z.enum(INVOICE_STATUSES).optional(),
});
export type BillingQueueQuery = z.infer<typeof billingQueueQuerySchema>;
export const invoicePageSchema = pageOf(invoiceSchema, 'InvoicePage');
export type InvoicePage = z.infer<typeof invoicePageSchema>;

const seatCount = (n: number) => `${n.toLocaleString('en-US')} seat${n === 1 ? '' : 's'}`;
const dayOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Texts the spec leaves open (decision 010); the spec's own are in MSG. */
export const INVOICE_MSG = {
  forbidden: 'You are not authorized to create an invoice for this organization.',
  systemAdminOnly: 'Only a system admin can fulfil or void invoices and change the price list.',
  hasLicense: (type: LicenseType) =>
    `This organization already has a ${LICENSE_TYPE_LABEL[type]} licence: extend it or add seats to it instead.`,
  followsAbove: (organization: string) =>
    `This licence’s seats came from ${organization}: its expiry follows that licence, extend it there.`,
  expired: 'This licence has expired: extend it first, then add seats.',
  notAPack: (sizes: readonly number[]) =>
    sizes.length
      ? `Choose one of the credit packs: ${sizes.map((s) => s.toLocaleString('en-US')).join(', ')} credits.`
      : 'No credit packs are for sale.',
  alreadyFulfilled: 'This invoice has been fulfilled already: nothing was changed.',
  isVoid: 'This invoice is void: it can no longer be fulfilled.',
  voidFulfilled: 'This invoice has been fulfilled: it can no longer be voided.',
  alreadyVoid: 'This invoice is void already.',
  licenseGone: 'The licence of this invoice no longer exists: void the invoice and create a new one.',
  seatsChanged: (priced: number, now: number) =>
    `The licence’s seats changed since this invoice was made (it priced ${seatCount(priced)}, the licence now has ${seatCount(now)}): void it and create a new one.`,
  expiryChanged: (priced: string | null, now: string) =>
    `The licence’s expiry changed since this invoice was made (${
      priced ? `it priced the seats until ${dayOf(priced)}` : 'the expiry it priced is not known'
    }, the licence now runs until ${dayOf(now)}): void it and create a new one.`,
  organizationGone: 'The organization of this invoice was deleted: void the invoice.',
  poolOnlyForCredits: 'Only a credits invoice goes to a pool.',
  licenseExistsNow: (type: LicenseType) =>
    `This organization has a ${LICENSE_TYPE_LABEL[type]} licence now: void this invoice and create one that extends it or adds seats.`,
} as const;

/** The date `months` calendar months after `from` (the last day of a shorter month when the day is missing). */
export function addMonths(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** Whole months from `now` that reach `until` (at least 1): what added seats pay for. */
export function monthsLeft(now: Date, until: Date): number {
  let months = 1;
  while (addMonths(now, months) < until && months < 1200) months++;
  return months;
}

export const daysBetween = (from: Date, to: Date) =>
  Math.max(0, Math.round((to.getTime() - from.getTime()) / 86_400_000));

/**
 * The amount of a licence invoice (decision 010): seats × months × the price per seat per month. A new licence
 * and an extension pay their period; added seats pay the months left on the licence.
 */
export const licenseAmount = (seats: number, months: number, pricePerSeatMonth: number) =>
  seats * months * pricePerSeatMonth;

/** "$1,234.50": an amount in minor units, for people. */
export function formatMoney(amount: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
