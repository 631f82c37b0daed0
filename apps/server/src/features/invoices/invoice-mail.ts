import { formatMoney, type Invoice } from '@allot/domain/invoices';
import { type Mail, type MailSettings, publicLink, renderHtml, renderText, unlinked } from '../mail';

export const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * The invoice, in words, to its customer: number, what, amount, due date, whom to pay and how (when the
 * installation says: INVOICE_PAYEE, INVOICE_PAYMENT_INSTRUCTIONS), and its printable page.
 */
export function invoiceMail(invoice: Invoice, settings: MailSettings): Mail {
  const amount = formatMoney(invoice.amount, invoice.currency);
  const content = {
    greeting: 'Hello,',
    intro: [
      // The name is what someone typed: plain text, in quotes, never a link (CONTRACT §7).
      `Here is invoice ${invoice.number} for the organization “${unlinked(invoice.organizationName)}”, created on ${longDate(invoice.createdAt)}.`,
      `What it buys: ${invoice.description}.`,
      ...(invoice.creditPool
        ? [`The credits go to the organization’s ${invoice.creditPool} pool once it is paid.`]
        : []),
      // The buyer's own reference (CONTRACT §7), as typed: plain text, never a link.
      ...(invoice.purchaseOrder ? [`Your purchase order: ${unlinked(invoice.purchaseOrder)}.`] : []),
      `Amount due: ${amount}, by ${longDate(invoice.dueDate)}.`,
      ...(invoice.payee ? [`Pay to: ${invoice.payee}.`] : []),
      // Each line a paragraph of its own: a bank's details stay one to a line in both parts of the mail.
      ...(invoice.paymentInstructions
        ? ['How to pay:', ...invoice.paymentInstructions.split('\n').filter((line) => line.trim() !== '')]
        : []),
      `Please quote ${invoice.number} with your payment.`,
    ],
    action: {
      label: 'Open the invoice to print it or save it as a PDF',
      url: publicLink(settings, `/${invoice.organizationId}/invoices/${invoice.id}`),
    },
    outro: [
      'Once it is paid, the seats or credits appear in Allot for your organization.',
      'If you did not expect this invoice, reply to this email or contact your Allot system admin.',
    ],
  };
  return {
    kind: 'invoice',
    to: invoice.customerEmail,
    subject: `Invoice ${invoice.number} from Allot: ${amount}`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
