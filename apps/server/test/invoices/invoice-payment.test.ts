import type { Invoice, InvoicePage } from '@allot/domain/invoices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { signedInCalls } from '../support/calls';
import { lastMailTo } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 33, item 3: invoices carry the payee and the payment instructions an operator configures
 * (INVOICE_PAYEE, INVOICE_PAYMENT_INSTRUCTIONS), in every answer and in the mail; unset, nothing is made up.
 */
const PAYEE = 'Allot Learning Ltd';
const INSTRUCTIONS = 'Bank transfer to IBAN GB33 BUKB 2020 1555 5555 55\nBIC BUKBGB22';

let configured: TestApp;
let bare: TestApp;
beforeAll(async () => {
  configured = await createTestApp({ invoicePayment: { payee: PAYEE, instructions: INSTRUCTIONS } });
  bare = await createTestApp();
});
afterAll(async () => {
  await configured.close();
  await bare.close();
});

async function buyCredits(t: TestApp, customerEmail: string): Promise<Invoice> {
  const api = await signedInCalls(t, ['owner']);
  const answer = await api.post('owner', '/api/invoice/create', {
    organizationId: t.world.orgs.alpha,
    kind: 'credits',
    credits: 1000,
    customerEmail,
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}

describe('payee and payment instructions', () => {
  it('are on every answer of an invoice and in its mail when configured', async () => {
    const invoice = await buyCredits(configured, 'owner@alpha.test');
    expect(invoice).toMatchObject({ payee: PAYEE, paymentInstructions: INSTRUCTIONS });
    const mail = await lastMailTo(configured.db, 'owner@alpha.test');
    expect(mail.kind).toBe('invoice');
    expect(mail.text_body).toContain(`Pay to: ${PAYEE}.`);
    expect(mail.text_body).toContain(
      'How to pay:\n\nBank transfer to IBAN GB33 BUKB 2020 1555 5555 55\n\nBIC BUKBGB22',
    );
    expect(mail.text_body).toContain(`Please quote ${invoice.number} with your payment.`);
    expect(mail.html_body).toContain('BIC BUKBGB22');

    const api = await signedInCalls(configured, ['owner', 'systemAdmin']);
    const read = (await api.get('owner', `/api/invoice/${invoice.id}`)).json<Invoice>();
    expect(read).toMatchObject({ payee: PAYEE, paymentInstructions: INSTRUCTIONS });
    const listed = (
      await api.get('owner', `/api/organization/${configured.world.orgs.alpha}/invoices`)
    ).json<InvoicePage>();
    expect(listed.data.every((i) => i.payee === PAYEE)).toBe(true);
    const queue = (await api.get('systemAdmin', '/api/invoices?status=open')).json<InvoicePage>();
    expect(queue.data.find((i) => i.id === invoice.id)?.paymentInstructions).toBe(INSTRUCTIONS);
    const voided = await api.post('systemAdmin', `/api/invoice/${invoice.id}/void`, {});
    expect(voided.json<Invoice>().payee).toBe(PAYEE);
  });

  it('are null, and the mail names no payee, when not configured', async () => {
    const invoice = await buyCredits(bare, 'owner@alpha.test');
    expect(invoice).toMatchObject({ payee: null, paymentInstructions: null });
    const mail = await lastMailTo(bare.db, 'owner@alpha.test');
    expect(mail.text_body).not.toContain('Pay to');
    expect(mail.text_body).not.toContain('How to pay');
    expect(mail.text_body).toContain(`Please quote ${invoice.number} with your payment.`);
  });

  it('are read from the environment: trimmed, \\n a line break, empty none', () => {
    const config = loadConfig({
      INVOICE_PAYEE: '  Allot Learning Ltd ',
      INVOICE_PAYMENT_INSTRUCTIONS: 'IBAN GB33 BUKB\\nBIC BUKBGB22',
    });
    expect(config.invoicePayee).toBe('Allot Learning Ltd');
    expect(config.invoicePaymentInstructions).toBe('IBAN GB33 BUKB\nBIC BUKBGB22');
    const none = loadConfig({ INVOICE_PAYEE: '', INVOICE_PAYMENT_INSTRUCTIONS: '   ' });
    expect(none.invoicePayee).toBeUndefined();
    expect(none.invoicePaymentInstructions).toBeUndefined();
    expect(() => loadConfig({ INVOICE_PAYEE: 'x'.repeat(201) })).toThrow('INVOICE_PAYEE');
  });
});
