import type { Invoice } from '@allot/domain/invoices';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { apiToken, callApi } from './support/api';
import { screenshot } from './support/browser';
import { createOrganization, voidInvoice } from './support/builders';
import { browserSuite, signIn, uniqueName } from './support/suite';
import './support/context';

/**
 * Issue 33, item 7: bought credits land in the pool the buyer chose, the shared one (where teachers draw from)
 * unless they choose otherwise; the invoice keeps the choice and the fulfilment follows it.
 */
const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

// A district of its own, so that the credits bought leave the demo data's balances as other tests expect them.
let adminToken: string;
let districtId: string;
beforeAll(async () => {
  adminToken = await apiToken(baseUrl, inject('adminEmail'), inject('adminPassword'));
  districtId = await createOrganization(baseUrl, adminToken, {
    name: uniqueName('E2E Pool District'),
    type: 'district',
    phoneNumber: '555 010 7000',
    parentOrganizationId: null,
  });
});

async function pools(): Promise<{ shared: number; protected: number }> {
  const answer = await callApi<{ shared: number; protected: number }>(
    baseUrl,
    'GET',
    `/organization/${districtId}/credits`,
    { token: adminToken },
  );
  return answer.body;
}

describe('buying credits into a pool (issue 33, item 7)', () => {
  test('the dialog offers the pools, shared first; the invoice keeps the choice and its fulfilment follows it', async () => {
    const { page, unexpectedErrors } = await newPage();
    let invoiceId = '';
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, inject('adminEmail'), inject('adminPassword'));
      await page.goto(`/${districtId}`);
      await page.getByRole('button', { name: 'Buy more credits' }).click();
      const buy = page.getByRole('dialog', { name: 'Buy more credits' });
      const into = buy.getByRole('radiogroup', { name: 'Into the pool' });
      await into.waitFor();
      expect(await into.getByRole('radio', { name: /^Shared pool/ }).isChecked()).toBe(true);
      await into.getByText('Its teachers draw on it').waitFor();
      await into.getByText('Kept back: only admins move it').waitFor();
      await buy.getByRole('radio', { name: /^20,000 credits/ }).click();
      await screenshot(page, 'credits-buy-pool');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'phone-credits-buy-pool', { fullPage: false });
      await buy.getByRole('radiogroup', { name: 'Into the pool' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'phone-credits-buy-pool-cards', { fullPage: false });
      await page.setViewportSize({ width: 1440, height: 900 });

      // The protected pool, chosen and then left for the shared one: what is sent is the last choice.
      await into.getByRole('radio', { name: /^Protected pool/ }).click();
      expect(await into.getByRole('radio', { name: /^Protected pool/ }).isChecked()).toBe(true);
      await into.getByRole('radio', { name: /^Shared pool/ }).click();
      const sent = page.waitForRequest('**/api/invoice/create');
      await buy.getByRole('button', { name: 'Create invoice' }).click();
      expect((await sent).postDataJSON()).toMatchObject({
        kind: 'credits',
        credits: 20_000,
        creditPool: 'shared',
      });
      await buy.waitFor({ state: 'detached' });
      const notice = page.getByRole('alert').filter({ hasText: /Invoice INV-[A-Z2-9]{6}-\d{4} created/ });
      await notice.getByRole('link', { name: /^Open invoice INV-/ }).click();
      const sheet = page.getByRole('article', { name: /^Invoice INV-/ });
      await sheet.getByText('Credits go to', { exact: false }).waitFor();
      await sheet.getByText('Shared pool', { exact: true }).waitFor();
      invoiceId = page.url().split('/').at(-1) ?? '';
      await screenshot(page, 'credits-invoice-pool');

      // Fulfilled, the credits are in the shared pool.
      const before = await pools();
      const done = await callApi<Invoice>(baseUrl, 'POST', `/invoice/${invoiceId}/fulfil`, {
        token: adminToken,
        body: { method: 'free' },
      });
      expect(done.status).toBe(200);
      expect(done.body.creditPool).toBe('shared');
      expect(await pools()).toMatchObject({ shared: before.shared + 20_000, protected: before.protected });
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      if (invoiceId) await voidInvoice(baseUrl, adminToken, invoiceId);
    }
  });
});
