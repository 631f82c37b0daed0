import { beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { apiToken } from './support/api';
import { screenshot } from './support/browser';
import { createCreditsInvoice, myOrganizationId, voidInvoice } from './support/builders';
import { E2E_INVOICE_PAYEE, E2E_INVOICE_PAYMENT_INSTRUCTIONS } from './support/invoice-payment';
import { browserSuite, signIn } from './support/suite';
import './support/context';

/**
 * Issue 33, item 3: an invoice says whom to pay and how, as the operator configured it (INVOICE_PAYEE,
 * INVOICE_PAYMENT_INSTRUCTIONS: the e2e server has both); an installation without them names no payee.
 */
const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);
const OWNER = 'owner@riverside.test';

let ownerToken: string;
let adminToken: string;
let riversideId: string;
beforeAll(async () => {
  ownerToken = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  adminToken = await apiToken(baseUrl, inject('adminEmail'), inject('adminPassword'));
  riversideId = await myOrganizationId(baseUrl, ownerToken, DEMO_ROOT);
});

describe('payee and payment instructions on the invoice (issue 33, item 3)', () => {
  test('the printable invoice names the payee and says how to pay; unset, it names none', async () => {
    const invoice = await createCreditsInvoice(baseUrl, ownerToken, {
      organizationId: riversideId,
      credits: 1000,
      customerEmail: OWNER,
    });
    expect(invoice.payee).toBe(E2E_INVOICE_PAYEE);
    expect(invoice.paymentInstructions).toBe(E2E_INVOICE_PAYMENT_INSTRUCTIONS);
    const { page, unexpectedErrors } = await newPage();
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, OWNER, DEMO_PASSWORD);
      await page.goto(`/${riversideId}/invoices/${invoice.id}`);
      const sheet = page.getByRole('article', { name: `Invoice ${invoice.number}` });
      await sheet.waitFor();
      await sheet.getByText(E2E_INVOICE_PAYEE, { exact: true }).waitFor();
      await sheet
        .getByText(`Please pay ${E2E_INVOICE_PAYEE} by`, { exact: false })
        .filter({ hasText: `quoting ${invoice.number}` })
        .waitFor();
      const howToPay = sheet.getByRole('group', { name: 'How to pay' });
      // One line per line of the setting.
      const lines = (await howToPay.innerText()).split('\n').filter((line) => line.trim() !== '');
      expect(lines.slice(1)).toEqual(E2E_INVOICE_PAYMENT_INSTRUCTIONS.split('\n'));
      await screenshot(page, 'invoice-payment');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'phone-invoice-payment');

      // An installation without the settings: no payee, no instructions, nothing made up.
      await page.route(`**/api/invoice/${invoice.id}`, async (route) => {
        const response = await route.fetch();
        const body = await response.json();
        await route.fulfill({ response, json: { ...body, payee: null, paymentInstructions: null } });
      });
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.reload();
      await sheet.getByText(`Please pay by`, { exact: false }).waitFor();
      expect(await sheet.getByText(E2E_INVOICE_PAYEE).count()).toBe(0);
      expect(await sheet.getByRole('group', { name: 'How to pay' }).count()).toBe(0);
      await screenshot(page, 'invoice-payment-unset');
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await voidInvoice(baseUrl, adminToken, invoice.id);
    }
  });
});
