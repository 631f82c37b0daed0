import { describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { apiToken } from './support/api';
import { screenshot } from './support/browser';
import { createCreditsInvoice, myOrganizationId } from './support/builders';
import { dialog, waitForHeading } from './support/screens';
import { browserSuite, signIn } from './support/suite';
import './support/context';

const baseUrl = inject('baseUrl');
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';

/** Issue 33, CONTRACT §7: the system admins' billing queue, and the buyer's purchase-order number. */
describe('billing', () => {
  test('an invoice bought with a PO number waits in the queue, and is fulfilled from it', async () => {
    // The owner buys credits for the district, with the district's PO number.
    const token = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
    const bought = await createCreditsInvoice(baseUrl, token, {
      organizationId: await myOrganizationId(baseUrl, token, DEMO_ROOT),
      credits: 1000,
      customerEmail: OWNER,
      purchaseOrder: 'PO-RIV-7781',
    });
    const { number } = bought;
    expect(bought.purchaseOrder).toBe('PO-RIV-7781');

    const { page, unexpectedErrors } = await newPage();
    await signIn(page, adminEmail, adminPassword);
    await page.getByRole('banner').getByRole('link', { name: 'Billing' }).click();
    await waitForHeading(page, 'Billing');
    const invoices = page.getByRole('table', { name: 'Invoices' });
    const row = invoices.getByRole('row').filter({ hasText: number });
    await row.getByText(DEMO_ROOT).waitFor();
    await screenshot(page, 'billing-open-invoices');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'phone-billing-open-invoices');
    await page.setViewportSize({ width: 1366, height: 768 });

    // Its printable page names the purchase order, and leads back to the queue as it was left (searched).
    const search = page.getByRole('searchbox', { name: 'Search invoices' });
    await search.fill(number);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(number);
    await expect.poll(() => invoices.getByRole('row').count()).toBe(2);
    await row.getByRole('link', { name: `Open ${number}` }).click();
    await page.getByText('PO-RIV-7781').waitFor();
    await page.getByRole('link', { name: 'Back to billing' }).click();
    await waitForHeading(page, 'Billing');
    await expect.poll(() => search.inputValue()).toBe(number);
    await search.fill('');

    // Paid another way, from the list: it leaves the open invoices and is among the fulfilled.
    await row.getByRole('button', { name: `Fulfil ${number}` }).click();
    await page.getByRole('menuitem', { name: 'Paid another way', exact: true }).click();
    const confirm = dialog(page, `Paid another way: ${number}?`);
    await confirm.getByRole('button', { name: 'Paid another way' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    await page.getByRole('radiogroup', { name: 'Invoices shown' }).getByText('Fulfilled').click();
    await invoices
      .getByRole('row')
      .filter({ hasText: number })
      .getByText('Fulfilled', { exact: true })
      .first()
      .waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('fulfilled');
    expect(unexpectedErrors()).toEqual([]);
  });

  test('an owner who opens /billing is told it is for system admins', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, OWNER, DEMO_PASSWORD);
    await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    // The mail outbox is a system admin's: not on an owner's menu.
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.getByRole('link', { name: 'Credit log' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Mail outbox' }).count()).toBe(0);
    await page.goto('/billing');
    await page.getByText('Only a system admin sees every organization').waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });
});

describe('the mail outbox (issue 33)', () => {
  test('a system admin reads what was mailed; without SMTP a banner says nothing is sent', async () => {
    // Something to read: an invoice mailed to the district's owner.
    const token = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
    const rootId = await myOrganizationId(baseUrl, token, DEMO_ROOT);
    await createCreditsInvoice(baseUrl, token, {
      organizationId: rootId,
      credits: 1000,
      customerEmail: OWNER,
    });
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, adminEmail, adminPassword);
    // Reached from the menu of any organization, whether or not mail goes out.
    await page.goto(`/${rootId}`);
    const menuLink = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Mail outbox' });
    await menuLink.waitFor();
    await screenshot(page, 'system-admin-menu-mail-outbox');
    await menuLink.click();
    await page.getByRole('heading', { name: 'Mail outbox', level: 1 }).waitFor();
    // This server mails through SMTP (the tests' catcher): the page says so, and lists what went out.
    await page.getByText('Mail goes out through the mail server set in SMTP_URL.').waitFor();
    await page.getByRole('list', { name: 'Mails' }).getByRole('listitem').first().waitFor();
    await screenshot(page, 'mail-outbox');

    // An installation without SMTP_URL (the API's answer as such a server gives it): the banner on every
    // screen, and the page says the mails were not delivered.
    await page.route('**/api/mail/outbox?*', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      await route.fulfill({ response, json: { ...body, delivery: 'log' } });
    });
    await page.route('**/api/mail/delivery', (route) => route.fulfill({ json: { delivery: 'log' } }));
    await page.goto('/');
    const banner = page.getByRole('alert', { name: 'Mail is not sent' });
    await banner.getByRole('link', { name: 'mail outbox' }).waitFor();
    await screenshot(page, 'mail-not-sent-banner');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'phone-mail-not-sent-banner');
    await page.setViewportSize({ width: 1366, height: 768 });
    await banner.getByRole('link', { name: 'mail outbox' }).click();
    await page.getByText('these mails were not delivered', { exact: false }).waitFor();
    // Said once there: the banner, whose link would lead to this very page, steps aside for the page's own words.
    expect(await page.getByRole('link', { name: 'mail outbox' }).count()).toBe(0);
    expect(await page.getByText('Mail is not sent', { exact: true }).count()).toBe(1);
    await screenshot(page, 'mail-outbox-not-sent');
    expect(unexpectedErrors()).toEqual([]);
  });
});
