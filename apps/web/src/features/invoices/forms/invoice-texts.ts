import {
  EARLIER_PURCHASES_POOL,
  type FulfilmentMethod,
  formatMoney,
  type Invoice,
  PERIOD_LABEL,
} from '@allot/domain/invoices';
import { LICENSE_TYPE_LABEL, type LicenseType } from '@allot/domain/organizations';
import { formatCount } from '../../../lib/format';

/** The invoice list's "License" column: the licence type's label, or "Credits" for a credit pack. */
export function invoiceLicenceLabel(invoice: Pick<Invoice, 'licenseType'>): string {
  return invoice.licenseType ? LICENSE_TYPE_LABEL[invoice.licenseType] : 'Credits';
}

/** "30 TLE Teacher seats", "1 Chorus seat". */
export function seatsOf(count: number, type: LicenseType): string {
  return `${formatCount(count)} ${LICENSE_TYPE_LABEL[type]} seat${count === 1 ? '' : 's'}`;
}

type Applied = Pick<
  Invoice,
  | 'kind'
  | 'licenseType'
  | 'period'
  | 'credits'
  | 'organizationName'
  | 'newUsersQuantity'
  | 'extendUsersQuantity'
  | 'description'
  | 'creditPool'
>;

/**
 * What fulfilling the invoice will apply, in one sentence for its confirmation: "30 TLE Teacher seats for
 * 1 year will be added to Alpha District."
 */
export function purchaseSentence(invoice: Applied): string {
  const org = invoice.organizationName;
  const type = invoice.licenseType;
  const period = invoice.period ? PERIOD_LABEL[invoice.period] : null;
  switch (invoice.kind) {
    case 'new_license':
      if (type && period && invoice.newUsersQuantity !== null)
        return `${seatsOf(invoice.newUsersQuantity, type)} for ${period} will be added to ${org}.`;
      break;
    case 'extend_license':
      if (type && period)
        return `The ${LICENSE_TYPE_LABEL[type]} licence of ${org}${
          invoice.extendUsersQuantity !== null ? ` (${formatCount(invoice.extendUsersQuantity)} seats)` : ''
        } will be extended by ${period}, and the licences handed down from it with it.`;
      break;
    case 'add_users':
      if (type && invoice.newUsersQuantity !== null)
        return `${seatsOf(invoice.newUsersQuantity, type)} will be added to the ${LICENSE_TYPE_LABEL[type]} licence of ${org}.`;
      break;
    case 'credits':
      if (invoice.credits !== null)
        return `${formatCount(invoice.credits)} AI credits will be added to the ${invoice.creditPool ?? EARLIER_PURCHASES_POOL} pool of ${org}.`;
      break;
  }
  return `${invoice.description} will be applied to ${org}.`;
}

/** How the invoice is settled, for the confirmation of each fulfilment option (spec §4). */
export function methodSentence(
  method: FulfilmentMethod,
  invoice: Pick<Invoice, 'number' | 'amount' | 'currency'>,
): string {
  const amount = formatMoney(invoice.amount, invoice.currency);
  switch (method) {
    case 'payment':
      return `${invoice.number} is marked as paid (${amount}).`;
    case 'paid_out_of_band':
      return `${invoice.number} is marked as paid another way, outside the panel (${amount}).`;
    case 'free':
      return `${invoice.number} is fulfilled for free: the ${amount} are not charged.`;
  }
}
