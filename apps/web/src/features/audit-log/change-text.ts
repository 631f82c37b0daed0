import { CREDIT_POOL_LABEL, type CreditPool } from '@allot/domain/credits';
import {
  FULFILMENT_LABEL,
  type FulfilmentMethod,
  formatMoney,
  INVOICE_KIND_LABEL,
  INVOICE_STATUS_LABEL,
  type InvoiceKind,
  type InvoiceStatus,
} from '@allot/domain/invoices';
import { LICENSE_TYPE_LABEL, type LicenseType } from '@allot/domain/organizations';
import {
  REQUEST_KIND_LABEL,
  REQUEST_STATUS_LABEL,
  type RequestKind,
  type RequestStatus,
} from '@allot/domain/requests';
import { ROLE_LABEL, type Role } from '@allot/domain/roles';
import { formatCount } from '../../lib/format';

/** Fields whose name in words would mislead: `mailed` is true once the invoice's mail is in the outbox. */
const FIELD_LABEL: Record<string, string> = { mailed: 'mail to the customer' };

/**
 * "maxUsers" → "max users", "license_type" → "licence type" (the API's spelling in code, "licence" in English
 * text): a field's name in words.
 */
export function fieldLabel(key: string): string {
  return (
    FIELD_LABEL[key] ??
    key
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_-]+/g, ' ')
      .toLowerCase()
      .replace(/\blicense\b/g, 'licence')
  );
}

/** A value in words: numbers with separators, ISO dates as days, nothing as "—", lists joined. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number') return formatCount(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(value)) return value.slice(0, 10);
    return value.replace(/_/g, ' ');
  }
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  return JSON.stringify(value);
}

const labelled = <T extends string>(labels: Record<T, string>, value: unknown) =>
  typeof value === 'string' && value in labels ? labels[value as T] : valueText(value);

/**
 * A field's value as the screens say it (issue 33): a role by its label ("Teacher", not "user"), a licence type
 * ("Chorus", not "chorus"), a pool ("Shared pool"), what an invoice or a request is for ("More seats", "Credits"),
 * an invoice's amount as money (it is kept in cents, with its `currency` beside it), its status and fulfilment
 * as the invoices screen words them; anything else by `valueText`.
 */
function fieldText(key: string, value: unknown, entry: Record<string, unknown>): string {
  if (key === 'role') return labelled<Role>(ROLE_LABEL, value);
  if (key === 'licence' || key === 'licenseType') return labelled<LicenseType>(LICENSE_TYPE_LABEL, value);
  if (key === 'pool') return labelled<CreditPool>(CREDIT_POOL_LABEL, value);
  if (key === 'kind')
    return typeof value === 'string' && value in REQUEST_KIND_LABEL
      ? labelled<RequestKind>(REQUEST_KIND_LABEL, value)
      : labelled<InvoiceKind>(INVOICE_KIND_LABEL, value);
  if (key === 'status')
    return typeof value === 'string' && value in REQUEST_STATUS_LABEL && !(value in INVOICE_STATUS_LABEL)
      ? labelled<RequestStatus>(REQUEST_STATUS_LABEL, value)
      : labelled<InvoiceStatus>(INVOICE_STATUS_LABEL, value);
  if (key === 'fulfilmentMethod') return labelled<FulfilmentMethod>(FULFILMENT_LABEL, value);
  if (key === 'creditPool') return labelled<CreditPool>(CREDIT_POOL_LABEL, value);
  // Queued is all the panel knows: whether it was delivered is the mail server's (and without SMTP it is not).
  if (key === 'mailed' && typeof value === 'boolean')
    return value ? 'queued' : "not sent (the day's invoice mails to outside addresses were used up)";
  if (key === 'amount' && typeof value === 'number' && typeof entry.currency === 'string') {
    try {
      return formatMoney(value, entry.currency);
    } catch {
      // A currency code Intl does not know: the number as it is.
    }
  }
  return valueText(value);
}

/**
 * An entry's change, one line per field: "role: Admin → Teacher"; a creation lists what it was created with
 * ("name: Maple"), a removal what it had ("name: Maple → —"). An amount's currency is said with the amount, not
 * on a line of its own.
 */
export function changeLines(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const moneyOf = (entry: Record<string, unknown> | null) =>
    typeof entry?.amount === 'number' && typeof entry.currency === 'string';
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (key) => key !== 'currency' || !(moneyOf(before) || moneyOf(after)),
  );
  return keys.map((key) => {
    const label = fieldLabel(key);
    const text = (entry: Record<string, unknown>) => fieldText(key, entry[key], entry);
    if (!before) return `${label}: ${text(after ?? {})}`;
    if (!after) return `${label}: ${text(before)} → —`;
    return `${label}: ${text(before)} → ${text(after)}`;
  });
}
