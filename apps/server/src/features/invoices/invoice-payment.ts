import type { Invoice } from '@allot/domain/invoices';
import type { InvoiceRecord } from './invoice-queries';

/**
 * Who invoices are paid to and how (INVOICE_PAYEE, INVOICE_PAYMENT_INSTRUCTIONS; issue 33, decision 010): a setting
 * of the installation, printed on every invoice and in its mail. Unset, an invoice names no payee and gives no
 * instructions rather than inventing any.
 */
export interface InvoicePayment {
  payee: string | null;
  instructions: string | null;
}

export const NO_INVOICE_PAYMENT: InvoicePayment = { payee: null, instructions: null };

/** The invoice as answered: the record and the payment settings as they are now. */
export function withPayment(invoice: InvoiceRecord, payment: InvoicePayment): Invoice {
  return { ...invoice, payee: payment.payee, paymentInstructions: payment.instructions };
}
