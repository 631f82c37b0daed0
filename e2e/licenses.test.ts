import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { apiToken, callApi } from './support/api';
import { loseFirstAnswer } from './support/browser';
import { createCreditsInvoice, createOrganization, setUpAccount } from './support/builders';
import { dialog, screenshotFromTop as screenshot } from './support/screens';
import { browserSuite, signIn, uniqueEmail, uniqueName } from './support/suite';
import './support/context';

const baseUrl = inject('baseUrl');
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');
const { newPage } = browserSuite(baseUrl);

const PASSWORD = 'e2e-licence-owner-2026';
const OWNER_NAME = 'Lena Licht';
const INVOICE_NUMBER = /^INV-[A-Z2-9]{6}-\d{4}$/;

// One story, told by the tests of this file in order: a fresh district and its owner, who buys a licence
// that the system admin fulfils; nothing of another test file's data is touched.
const district = uniqueName('E2E Licence District');
let districtId: string;
let ownerEmail: string;
let adminToken: string;
let smtp: SmtpCatcher;
/** The number of the invoice for 30 TLE Teacher seats, once created. */
let licenceInvoice: string;

interface PriceList {
  currency: string;
  licenses: { licenseType: string; pricePerSeatMonth: number; hasFreeTier: boolean }[];
  creditPacks: { credits: number; price: number }[];
}
let seededPrices: PriceList;

async function putPriceList(list: PriceList): Promise<number> {
  const response = await fetch(`${baseUrl}/api/invoice/products`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${adminToken}` },
    body: JSON.stringify(list),
  });
  return response.status;
}

beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  adminToken = await apiToken(baseUrl, adminEmail, adminPassword);
  ownerEmail = uniqueEmail('lena-licence-owner');
  districtId = await createOrganization(baseUrl, adminToken, {
    name: district,
    type: 'district',
    phoneNumber: '+1 555 010 5000',
    parentOrganizationId: null,
    adminName: OWNER_NAME,
    adminEmail: ownerEmail,
  });
  await setUpAccount(baseUrl, smtp, ownerEmail, PASSWORD);
  seededPrices = (await callApi<PriceList>(baseUrl, 'GET', '/invoice/products', { token: adminToken })).body;
});

afterAll(async () => {
  await smtp?.stop();
  // The price list is shared by every test file: back as it was.
  if (seededPrices) await putPriceList(seededPrices);
});

/** Picks an option of a Mantine Select inside the open dialog. */
async function choose(scope: Locator, page: Page, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openLicenses(page: Page): Promise<void> {
  await page.goto(`/${districtId}/licenses`);
  await page.getByRole('heading', { name: 'Licenses', level: 1 }).waitFor();
}

function invoiceRow(page: Page, number: string): Locator {
  return page.getByRole('table', { name: 'Invoices' }).getByRole('row').filter({ hasText: number });
}

function licenceCard(page: Page, label: string): Locator {
  return page.getByRole('article', { name: label, exact: true });
}

describe('licences and invoices', () => {
  test('the owner buys 30 TLE Teacher seats for 1 year: an invoice at the price list’s amount', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await openLicenses(page);
    await page.getByText('No licences yet', { exact: true }).waitFor();
    await page.getByText('No invoices yet', { exact: true }).waitFor();
    // Only system admins create licences without an invoice.
    expect(await page.getByRole('button', { name: 'Create new licence' }).count()).toBe(0);
    await screenshot(page, 'licenses-empty');

    await page.getByRole('button', { name: 'Buy a licence' }).click();
    const buy = dialog(page, 'Buy a licence');
    await buy.waitFor();
    // The customer email is the signed-in person's, the period a year.
    expect(await buy.getByRole('textbox', { name: 'Customer email' }).inputValue()).toBe(ownerEmail);
    expect(await buy.getByRole('combobox', { name: 'Period' }).inputValue()).toBe('1 year');
    await buy.getByText('Enter the seats to see the amount.').waitFor();
    await buy.getByRole('button', { name: 'Create invoice' }).click();
    await buy.getByText('Field is required.', { exact: true }).waitFor();
    await screenshot(page, 'licenses-buy-validation');

    await choose(buy, page, 'Licence type', 'TLE Teacher');
    await buy.getByText('$3.00 per seat per month').waitFor();
    await buy.getByRole('textbox', { name: 'Seats' }).fill('30');
    const amount = buy.getByLabel('Amount');
    await amount.getByText('$1,080.00', { exact: true }).waitFor();
    await amount.getByText('30 seats × 12 months × $3.00 per seat per month').waitFor();
    await amount.getByText(/The server computes the amount when it creates the invoice/).waitFor();
    // Another period changes the amount as the person chooses it.
    await choose(buy, page, 'Period', '2 years');
    await amount.getByText('$2,160.00', { exact: true }).waitFor();
    await choose(buy, page, 'Period', '1 year');
    await amount.getByText('$1,080.00', { exact: true }).waitFor();
    await screenshot(page, 'licenses-buy-dialog');

    await buy.getByRole('button', { name: 'Create invoice' }).click();
    await buy.waitFor({ state: 'detached' });
    const notice = page.getByRole('alert').filter({ hasText: /Invoice INV-[A-Z2-9]{6}-\d{4} created/ });
    await notice.waitFor();
    licenceInvoice = /INV-[A-Z2-9]{6}-\d{4}/.exec((await notice.textContent()) ?? '')?.[0] ?? '';
    expect(licenceInvoice).toMatch(INVOICE_NUMBER);
    await notice.getByRole('link', { name: `Open invoice ${licenceInvoice}` }).waitFor();

    const row = invoiceRow(page, licenceInvoice);
    await row.waitFor();
    const cells = (await row.getByRole('cell').allInnerTexts()).map((text) =>
      text.replace(/\s+/g, ' ').trim(),
    );
    expect(cells[0]?.toLowerCase()).toBe('open');
    expect(cells[1]).toBe(`TLE Teacher ${licenceInvoice}`);
    expect(cells[2]).toBe(ownerEmail);
    expect(cells[3]).toBe('$1,080.00');
    expect(['365', '366']).toContain(cells[6]);
    expect(cells[7]).toBe('—');
    expect(cells[8]).toBe('30');
    // The owner does not fulfil: that is a system admin's.
    expect(await row.getByRole('button', { name: /^Fulfil/ }).count()).toBe(0);
    await screenshot(page, 'licenses-invoice-created');

    // The customer gets the invoice by mail, through the outbox and SMTP: what, the amount, the due date.
    const mail = await smtp.waitFor(ownerEmail, (m) => m.subject.startsWith(`Invoice ${licenceInvoice}`));
    expect(mail.subject).toBe(`Invoice ${licenceInvoice} from Allot: $1,080.00`);
    const due = new Date(Date.now() + 30 * 86_400_000).toLocaleDateString('en-US', {
      dateStyle: 'long',
      timeZone: 'UTC',
    });
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('30 TLE Teacher seats for 1 year');
      expect(body).toContain('$1,080.00');
      expect(body).toContain(due);
    }
    expect(unexpectedErrors()).toEqual([]);
  });

  test('the system admin fulfils it "Paid another way": the licence appears with 30 seats, once', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, adminEmail, adminPassword);
    await openLicenses(page);
    const row = invoiceRow(page, licenceInvoice);
    await row.getByRole('button', { name: `Fulfil ${licenceInvoice}` }).click();
    for (const option of ['Fulfil', 'Paid another way', 'Fulfil for free', 'Void']) {
      await page.getByRole('menuitem', { name: option, exact: true }).waitFor();
    }
    await screenshot(page, 'licenses-fulfil-menu');
    await page.getByRole('menuitem', { name: 'Paid another way', exact: true }).click();

    const confirm = dialog(page, `Paid another way: ${licenceInvoice}?`);
    await confirm.getByText(`30 TLE Teacher seats for 1 year will be added to ${district}.`).waitFor();
    await confirm
      .getByText(`${licenceInvoice} is marked as paid another way, outside the panel ($1,080.00).`)
      .waitFor();
    await screenshot(page, 'licenses-fulfil-confirmation');
    await confirm.getByRole('button', { name: 'Paid another way' }).click();
    await confirm.waitFor({ state: 'detached' });

    // The licence and the invoice list refresh: 30 seats, none used; the invoice fulfilled, not offered again.
    const card = licenceCard(page, 'TLE Teacher');
    await card.getByText('of 30').waitFor();
    await card.getByText('Free seats').waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
    await row.getByText('Fulfilled', { exact: true }).first().waitFor();
    expect(await row.getByRole('button', { name: /^Fulfil/ }).count()).toBe(0);
    // Ten columns fit a laptop's screen: no sideways scrolling.
    const overflow = await page.getByRole('table', { name: 'Invoices' }).evaluate((table) => {
      const root = table.closest('.mantine-datatable');
      return table.getBoundingClientRect().width - (root?.clientWidth ?? 0);
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'licenses-after-fulfil');

    // The server applies it once: a second fulfil (say from another tab) is refused and changes nothing.
    const invoices = await callApi<{ data: { id: string; number: string }[] }>(
      baseUrl,
      'GET',
      `/organization/${districtId}/invoices`,
      { token: adminToken },
    );
    const id = invoices.body.data.find((i) => i.number === licenceInvoice)?.id;
    const again = await callApi<{ message: string }>(baseUrl, 'POST', `/invoice/${id}/fulfil`, {
      token: adminToken,
      body: { method: 'payment' },
    });
    expect(again.status).toBe(409);
    await page.reload();
    await licenceCard(page, 'TLE Teacher').getByText('of 30').waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });

  test('the printable invoice page', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await openLicenses(page);
    await invoiceRow(page, licenceInvoice)
      .getByRole('link', { name: `Open ${licenceInvoice}` })
      .click();
    const sheet = page.getByRole('article', { name: `Invoice ${licenceInvoice}` });
    await sheet.waitFor();
    for (const text of [district, ownerEmail, '30 TLE Teacher seats for 1 year', 'Fulfilled']) {
      await sheet.getByText(text, { exact: true }).first().waitFor();
    }
    expect(await sheet.getByText('$1,080.00', { exact: true }).count()).toBe(2);
    await sheet.getByText(/^Fulfilled \(paid another way\) on /).waitFor();
    await screenshot(page, 'invoice-page');

    // 'Print' opens the browser's print dialog.
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await page.getByRole('button', { name: 'Print' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

    // Printed, only the invoice: no header, menu, footer, breadcrumbs or buttons.
    await page.emulateMedia({ media: 'print' });
    for (const hidden of [
      page.getByRole('banner'),
      page.getByRole('navigation', { name: 'Main' }),
      page.getByRole('navigation', { name: 'Footer' }),
      page.getByRole('navigation', { name: 'Breadcrumb' }),
      page.getByRole('button', { name: 'Print' }),
      page.getByRole('link', { name: 'Back to licenses' }),
    ]) {
      expect(await hidden.isVisible()).toBe(false);
    }
    expect(await sheet.isVisible()).toBe(true);
    await screenshot(page, 'invoice-page-print');
    await page.emulateMedia({ media: 'screen' });
    expect(unexpectedErrors()).toEqual([]);
  });

  test('loading and failure states: the invoice list, the invoice page, the price list', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    const serverError = {
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'internal', message: 'Something went wrong, please try again later.' }),
    };

    // The invoice list answers late, then fails (the client's one retry too): a spinner, then the error.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const isInvoiceList = (url: URL) => url.pathname.endsWith('/invoices');
    await page.route(isInvoiceList, async (route) => {
      await held;
      await route.fulfill(serverError);
    });
    await openLicenses(page);
    await page.getByRole('table', { name: 'Invoices' }).waitFor();
    await screenshot(page, 'licenses-invoices-loading');
    release();
    await page.getByText('Invoices could not be loaded').waitFor({ timeout: 10_000 });
    await screenshot(page, 'licenses-invoices-error');
    await page.unroute(isInvoiceList);
    await page.getByRole('button', { name: 'Retry' }).click();
    await invoiceRow(page, licenceInvoice).waitFor();

    // The invoice page while it loads, and for an invoice that is not there.
    let releaseInvoice = () => {};
    const heldInvoice = new Promise<void>((resolve) => {
      releaseInvoice = resolve;
    });
    const isInvoice = (url: URL) => /^\/api\/invoice\/[0-9a-f-]{36}$/.test(url.pathname);
    await page.route(isInvoice, async (route) => {
      await heldInvoice;
      await route.continue();
    });
    await invoiceRow(page, licenceInvoice)
      .getByRole('link', { name: `Open ${licenceInvoice}` })
      .click();
    await page.getByLabel('Loading the invoice').waitFor();
    await screenshot(page, 'invoice-page-loading');
    releaseInvoice();
    await page.getByRole('article', { name: `Invoice ${licenceInvoice}` }).waitFor();
    await page.unroute(isInvoice);
    await page.goto(`/${districtId}/invoices/00000000-0000-4000-8000-000000000000`);
    await page.getByText(`${district} has no such invoice.`).waitFor();
    await screenshot(page, 'invoice-page-not-found');

    // The price list screen: its failure, then the prices read-only for anyone but a system admin.
    await page.route('**/api/invoice/products', (route) => route.fulfill(serverError));
    await page.goto('/price-list');
    await page.getByText('The price list could not be loaded').waitFor({ timeout: 10_000 });
    await screenshot(page, 'price-list-error');
    await page.unroute('**/api/invoice/products');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Only a system admin can change the price list.').waitFor();
    expect(
      await page
        .getByRole('textbox', { name: 'TLE Teacher: price per seat per month' })
        .getAttribute('readonly'),
    ).not.toBeNull();
    await screenshot(page, 'price-list-read-only');
    expect(unexpectedErrors(/status of (500|404)/)).toEqual([]);
  });

  test('extend and add more: invoices prefilled from the licence; the price list failing shows in the dialog', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    // The price list fails (the client's one retry too) until the person asks again: the dialog says so.
    let failing = true;
    await page.route('**/api/invoice/products', async (route) => {
      if (!failing) return route.continue();
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'internal', message: 'Something went wrong, please try again later.' }),
      });
    });
    await openLicenses(page);
    const card = licenceCard(page, 'TLE Teacher');
    await card.getByRole('button', { name: 'Extend the TLE Teacher licence' }).click();
    const extend = dialog(page, 'Extend the TLE Teacher licence');
    await extend.getByText('The price list could not be loaded').waitFor();
    await screenshot(page, 'licenses-extend-price-list-error');
    failing = false;
    await extend.getByRole('button', { name: 'Retry' }).click();
    const amount = extend.getByLabel('Amount');
    await amount.getByText('$1,080.00', { exact: true }).waitFor();
    expect(await extend.getByRole('textbox', { name: 'Seats' }).inputValue()).toBe('30');
    await choose(extend, page, 'Period', '6 months');
    await amount.getByText('$540.00', { exact: true }).waitFor();
    await amount.getByText('30 seats × 6 months × $3.00 per seat per month').waitFor();
    await screenshot(page, 'licenses-extend-dialog');
    await extend.getByRole('button', { name: 'Cancel' }).click();
    await extend.waitFor({ state: 'detached' });

    await card.getByRole('button', { name: 'Add more TLE Teacher seats' }).click();
    const add = dialog(page, 'Add TLE Teacher seats');
    await add.getByRole('textbox', { name: 'Seats' }).fill('5');
    // Added seats pay for the 12 months left on the licence.
    await add.getByLabel('Amount').getByText('$180.00', { exact: true }).waitFor();
    await add.getByText('5 seats × 12 months × $3.00 per seat per month').waitFor();
    await screenshot(page, 'licenses-add-more-dialog');
    await add.getByRole('button', { name: 'Create invoice' }).click();
    await add.waitFor({ state: 'detached' });
    const notice = page.getByRole('alert').filter({ hasText: /Invoice INV-[A-Z2-9]{6}-\d{4} created/ });
    await notice.getByText('5 TLE Teacher seats more until', { exact: false }).waitFor();
    expect(
      await page.getByRole('table', { name: 'Invoices' }).locator('tbody tr').count(),
      'newest first: two invoices',
    ).toBe(2);
    const first = (
      await page.getByRole('table', { name: 'Invoices' }).locator('tbody tr').first().innerText()
    ).trim();
    expect(first).toContain('$180.00');
    expect(unexpectedErrors(/status of 500/)).toEqual([]);
  });

  test('the system admin voids the open invoice, edits the licence, creates a licence that expires soon and deletes it', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, adminEmail, adminPassword);
    await openLicenses(page);

    // Void: the open invoice for 5 more seats.
    const open = page
      .getByRole('table', { name: 'Invoices' })
      .getByRole('row')
      .filter({ hasText: '$180.00' });
    const number = /INV-[A-Z2-9]{6}-\d{4}/.exec(await open.innerText())?.[0] ?? '';
    await open.getByRole('button', { name: `Fulfil ${number}` }).click();
    await page.getByRole('menuitem', { name: 'Void', exact: true }).click();
    const voiding = dialog(page, `Void ${number}?`);
    await voiding.getByText(/will be void: it can no longer be fulfilled/).waitFor();
    await screenshot(page, 'licenses-void-confirmation');
    await voiding.getByRole('button', { name: 'Void invoice' }).click();
    await voiding.waitFor({ state: 'detached' });
    await open.getByText('Void', { exact: true }).waitFor();
    expect(await open.getByRole('button', { name: /^Fulfil/ }).count()).toBe(0);

    // Edit: the seats; a refusal of the server stays in the dialog.
    const card = licenceCard(page, 'TLE Teacher');
    await card.getByRole('button', { name: 'Edit the TLE Teacher licence' }).click();
    const edit = dialog(page, 'Edit the TLE Teacher licence');
    const seats = edit.getByRole('textbox', { name: 'Seats' });
    await seats.fill('forty');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByText('Field must contain only numbers', { exact: true }).waitFor();
    await seats.fill('40');
    await page.route('**/api/license/*/update', (route) =>
      route.fulfill({
        status: 422,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'business_rule',
          message: '41 seats of this licence are in use: it cannot hold fewer.',
        }),
      }),
    );
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit
      .getByRole('alert')
      .getByText('41 seats of this licence are in use: it cannot hold fewer.')
      .waitFor();
    await screenshot(page, 'licenses-edit-refused');
    await page.unroute('**/api/license/*/update');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await card.getByText('of 40').waitFor();

    // Create: a Chorus licence that runs out in ten days is flagged.
    await page.getByRole('button', { name: 'Create new licence' }).click();
    const create = dialog(page, 'Create new licence');
    await choose(create, page, 'Licence type', 'Chorus');
    await create.getByRole('textbox', { name: 'Seats' }).fill('12');
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    await create.getByLabel('Expiry date').fill(soon);
    await screenshot(page, 'licenses-create-dialog');
    await create.getByRole('button', { name: 'Create licence' }).click();
    await create.waitFor({ state: 'detached' });
    const chorus = licenceCard(page, 'Chorus');
    await chorus.getByText('Expires soon', { exact: true }).waitFor();
    await chorus.getByText('of 12').waitFor();
    await screenshot(page, 'licenses-two-licences');

    // Delete: the confirmation names the licence and the organization.
    await chorus.getByRole('button', { name: 'Delete the Chorus licence' }).click();
    const remove = dialog(page, 'Delete the Chorus licence?');
    await remove.getByText(/and its 12 seats will be deleted/).waitFor();
    await remove.getByText(district, { exact: true }).waitFor();
    await screenshot(page, 'licenses-delete-confirmation');
    await remove.getByRole('button', { name: 'Delete licence' }).click();
    await remove.waitFor({ state: 'detached' });
    await chorus.waitFor({ state: 'detached' });
    expect(unexpectedErrors(/status of 422/)).toEqual([]);
  });

  test("'Buy more credits' creates a credit invoice and links to it", async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Buy more credits' }).click();
    const buy = dialog(page, 'Buy more credits');
    await buy.getByRole('radio', { name: /^20,000 credits/ }).click();
    await buy.getByLabel('Amount').getByText('$160.00', { exact: true }).waitFor();
    expect(await buy.getByRole('textbox', { name: 'Customer email' }).inputValue()).toBe(ownerEmail);
    await screenshot(page, 'credits-buy-dialog');

    // The first answer is lost on the way back (the server did create the invoice); sent again, the same
    // Idempotency-Key gets the first invoice back and no second one is created.
    const keys = await loseFirstAnswer(page, '**/api/invoice/create');
    await buy.getByRole('button', { name: 'Create invoice' }).click();
    await buy.getByRole('alert').getByText('The invoice was not created').waitFor();
    await buy.getByRole('button', { name: 'Create invoice' }).click();
    await buy.waitFor({ state: 'detached' });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const listed = await callApi<{ data: { kind: string }[] }>(
      baseUrl,
      'GET',
      `/organization/${districtId}/invoices`,
      {
        token: adminToken,
      },
    );
    expect(listed.body.data.filter((invoice) => invoice.kind === 'credits')).toHaveLength(1);
    const notice = page.getByRole('alert').filter({ hasText: /Invoice INV-[A-Z2-9]{6}-\d{4} created/ });
    await notice.getByText('20,000 AI credits: $160.00.', { exact: false }).waitFor();
    await screenshot(page, 'credits-buy-notice');
    await notice.getByRole('link', { name: /^Open invoice INV-/ }).click();
    const sheet = page.getByRole('article', { name: /^Invoice INV-/ });
    await sheet.getByText('20,000 AI credits', { exact: true }).waitFor();
    await sheet.getByText('Credits', { exact: true }).waitFor();
    await sheet.getByText('Open, awaiting payment').waitFor();
    await screenshot(page, 'credits-invoice-page');
    expect(unexpectedErrors(/net::ERR_FAILED/)).toEqual([]);
  });

  test('the price list: a system admin changes a price and the packs; others cannot', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, adminEmail, adminPassword);
    await page.getByRole('link', { name: 'Price list' }).click();
    await page.getByRole('heading', { name: 'Price list', level: 1 }).waitFor();
    const price = page.getByRole('textbox', { name: 'TLE Teacher: price per seat per month' });
    expect(await price.inputValue()).toBe('3.00');
    await screenshot(page, 'price-list');

    await price.fill('3.505');
    await page.getByRole('button', { name: 'Add credit pack' }).click();
    await page.getByRole('textbox', { name: 'Pack 5: credits' }).fill('1000');
    await page.getByRole('button', { name: 'Save price list' }).click();
    await page.getByText('At most 2 decimals.', { exact: true }).waitFor();
    await page.getByText('Each pack needs its own size.', { exact: true }).waitFor();
    await page.getByText('Field is required.', { exact: true }).waitFor();
    await screenshot(page, 'price-list-validation');

    await price.fill('3.50');
    await page.getByRole('textbox', { name: 'Pack 5: credits' }).fill('50,000');
    await page.getByRole('textbox', { name: 'Pack 5: price' }).fill('375');
    await page.getByRole('switch', { name: 'Chorus: free tier' }).check();
    await page.getByRole('button', { name: 'Save price list' }).click();
    await page.getByText('Price list saved', { exact: true }).waitFor();

    const saved = (await callApi<PriceList>(baseUrl, 'GET', '/invoice/products', { token: adminToken })).body;
    expect(saved.licenses.find((p) => p.licenseType === 'tle_teacher')?.pricePerSeatMonth).toBe(350);
    expect(saved.licenses.find((p) => p.licenseType === 'chorus')?.hasFreeTier).toBe(true);
    expect(saved.creditPacks).toContainEqual({ credits: 50_000, price: 37_500 });
    await page.reload();
    expect(
      await page.getByRole('textbox', { name: 'TLE Teacher: price per seat per month' }).inputValue(),
    ).toBe('3.50');
    await screenshot(page, 'price-list-saved');

    // An owner sees the prices but cannot change them, and the header offers no link.
    const owner = await newPage();
    await signIn(owner.page, ownerEmail, PASSWORD);
    expect(await owner.page.getByRole('link', { name: 'Price list' }).count()).toBe(0);
    await owner.page.goto('/price-list');
    await owner.page.getByText('Only a system admin can change the price list.').waitFor();
    expect(await owner.page.getByRole('button', { name: 'Save price list' }).count()).toBe(0);
    expect(unexpectedErrors()).toEqual([]);
    expect(owner.unexpectedErrors()).toEqual([]);
  });

  test('a deleted school’s invoices stay in the district’s list, marked, and open from there', async () => {
    const ownerToken = await apiToken(baseUrl, ownerEmail, PASSWORD);
    const schoolName = uniqueName('E2E Closed School');
    const schoolId = await createOrganization(baseUrl, ownerToken, {
      name: schoolName,
      type: 'school',
      phoneNumber: '+1 555 010 5001',
      parentOrganizationId: districtId,
    });
    const buy = () =>
      createCreditsInvoice(baseUrl, ownerToken, {
        organizationId: schoolId,
        credits: 1000,
        customerEmail: ownerEmail,
      });
    const paid = await buy();
    const open = await buy();
    const fulfilled = await callApi(baseUrl, 'POST', `/invoice/${paid.id}/fulfil`, {
      token: adminToken,
      body: { method: 'payment' },
    });
    expect(fulfilled.status).toBe(200);
    const deleted = await callApi(baseUrl, 'DELETE', `/organization/${schoolId}/delete`, {
      token: ownerToken,
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);

    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await openLicenses(page);
    const mark = `Deleted organization: ${schoolName}`;
    for (const [number, status] of [
      [paid.number, 'fulfilled'],
      [open.number, 'void'],
    ] as const) {
      const row = invoiceRow(page, number);
      await row.getByText(mark, { exact: true }).waitFor();
      const cells = (await row.getByRole('cell').allInnerTexts()).map((text) =>
        text.replace(/\s+/g, ' ').trim(),
      );
      expect(cells[0]?.toLowerCase()).toBe(status);
      expect(cells[1]).toBe(`Credits ${number} ${mark}`);
    }
    // The district's own invoices carry no mark.
    expect(
      await invoiceRow(page, licenceInvoice)
        .getByText(/^Deleted organization/)
        .count(),
    ).toBe(0);
    await screenshot(page, 'licenses-deleted-organization-invoices');

    await invoiceRow(page, paid.number)
      .getByRole('link', { name: `Open ${paid.number}` })
      .click();
    const sheet = page.getByRole('article', { name: `Invoice ${paid.number}` });
    await sheet.getByText(`${schoolName} (deleted)`, { exact: true }).waitFor();
    await sheet.getByText(/^Fulfilled \(fulfil\) on /).waitFor();
    expect(page.url()).toContain(`/${districtId}/invoices/${paid.id}`);
    await screenshot(page, 'invoice-page-deleted-organization');
    expect(unexpectedErrors()).toEqual([]);
  });
});
