import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { apiToken } from './support/api';
import { screenshot } from './support/browser';
import { createCreditsInvoice, firstCreditPack, myOrganizationId, voidInvoice } from './support/builders';
import {
  loadedRows,
  openScreen,
  pageScrollWidth,
  screenshotFromTop,
  waitForHeading,
} from './support/screens';
import { browserSuite, signIn } from './support/suite';
import './support/context';

/*
 * Issue 14, item 8: the main screens on a phone (390×844). The pictures (e2e/screenshots/phone-*.png) are
 * for a person to look at; the checks are what a phone user would notice: nothing wider than the screen
 * but the tables, which scroll sideways inside themselves with the name and the row's actions in view; the
 * footer after the content, never over it; emails in the import preview broken at their parts, not letter
 * by letter.
 */
const baseUrl = inject('baseUrl');
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
const PHONE = { width: 390, height: 844 };

let riversideId: string;
let adminToken: string;
let invoiceId: string;

beforeAll(async () => {
  const ownerToken = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  adminToken = await apiToken(baseUrl, adminEmail, adminPassword);
  riversideId = await myOrganizationId(baseUrl, ownerToken, DEMO_ROOT);
  expect(riversideId).not.toBe('');
  // One invoice, so that the invoices table has a row to show (voided at the end).
  const invoice = await createCreditsInvoice(baseUrl, ownerToken, {
    organizationId: riversideId,
    credits: await firstCreditPack(baseUrl, ownerToken),
    customerEmail: 'accounts.payable@riverside-unified-school-district.example.test',
  });
  invoiceId = invoice.id;
});

afterAll(async () => {
  if (invoiceId) await voidInvoice(baseUrl, adminToken, invoiceId);
});

async function phonePage(): Promise<Page> {
  const { page } = await newPage();
  await page.setViewportSize(PHONE);
  await signIn(page, OWNER, DEMO_PASSWORD);
  return page;
}

/** Goes to a screen through the menu behind the burger, as a phone user does. */
async function openFromMenu(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await openScreen(page, link, heading);
  // The menu closes once a link is chosen (Home leaves the dashboard and its menu): out of sight, and its
  // links out of the tab order.
  const navbar = page.locator('#dashboard-navbar');
  if ((await navbar.count()) === 0) return;
  await expect
    .poll(() => navbar.evaluate((el) => el.getBoundingClientRect().right <= 0 && (el as HTMLElement).inert), {
      timeout: 5_000,
    })
    .toBe(true);
}

/** The footer: after the content (not fixed over it), below the last thing of the main region. */
async function expectFooterAfterContent(page: Page): Promise<void> {
  const footer = page.getByRole('contentinfo');
  await footer.waitFor();
  expect(await footer.evaluate((el) => getComputedStyle(el).position)).not.toBe('fixed');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const gap = await page.evaluate(() => {
    const main = document.querySelector('main');
    const foot = document.querySelector('footer');
    if (!main || !foot) return Number.NaN;
    const content = [...main.querySelectorAll('*')].filter((el) => {
      const box = el.getBoundingClientRect();
      return box.height > 0 && getComputedStyle(el).position !== 'fixed';
    });
    const lastBottom = Math.max(...content.map((el) => el.getBoundingClientRect().bottom));
    return foot.getBoundingClientRect().top - lastBottom;
  });
  expect(gap).toBeGreaterThanOrEqual(0);
}

/** Whether the element is on screen and not covered there (what is at its centre is the element). */
async function inView(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const x = box.left + Math.min(box.width / 2, 12);
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return hit !== null && (el === hit || el.contains(hit));
  });
}

describe('phones (390×844)', () => {
  test('the main screens: pictures, no sideways page, the footer after the content', async () => {
    const page = await phonePage();
    await waitForHeading(page, 'General information');
    // The page itself never scrolls sideways: only the tables do, inside themselves.
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await expectFooterAfterContent(page);
    await screenshotFromTop(page, 'phone-general-information');
    // A pool choice, with what each pool is for, fits the phone (issue 33).
    await page.getByRole('button', { name: 'Manage credits' }).click();
    const manage = page.getByRole('dialog', { name: 'Manage credits' });
    await manage.getByText('Its teachers draw on it').first().waitFor();
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: await screenshot(page, 'phone-manage-credits') });
    await manage.getByRole('button', { name: 'Cancel' }).click();
    await manage.waitFor({ state: 'detached' });

    await openFromMenu(page, 'Sub organizations', 'Sub organizations');
    await loadedRows(page, 'Sub organizations');
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await expectFooterAfterContent(page);
    await screenshotFromTop(page, 'phone-sub-organizations');

    await openFromMenu(page, 'Users', 'Users');
    await loadedRows(page, 'Users');
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await expectFooterAfterContent(page);
    await screenshotFromTop(page, 'phone-users');

    await openFromMenu(page, 'Licenses', 'Licenses');
    await loadedRows(page, 'Invoices');
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await expectFooterAfterContent(page);
    await screenshotFromTop(page, 'phone-licences');
    const invoices = page.getByRole('table', { name: 'Invoices' });
    // The invoices table as the phone shows it, in the window.
    await invoices.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: await screenshot(page, 'phone-invoices') });

    await openFromMenu(page, 'Credit log', 'Credit log');
    await page.getByRole('table', { name: 'Credit log' }).locator('tbody tr').first().waitFor();
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await expectFooterAfterContent(page);
    await screenshotFromTop(page, 'phone-credit-log');

    await openFromMenu(page, 'Home', 'Organizations');
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshotFromTop(page, 'phone-home');
  });

  test('a table scrolled sideways keeps the name and the row menu in view', async () => {
    const page = await phonePage();
    await page.goto(`/${riversideId}/users`);
    const rows = await loadedRows(page, 'Users');
    const row = rows.filter({ hasText: 'Adam Reyes' });
    const menuButton = row.getByRole('button', { name: 'Actions for Adam Reyes' });
    const nameCell = row.getByText('Adam Reyes', { exact: true });
    await row.scrollIntoViewIfNeeded();
    // The table is wider than the phone: it scrolls inside itself.
    const viewport = page
      .locator('.mantine-datatable')
      .filter({ has: page.getByRole('table', { name: 'Users' }) })
      .locator('.mantine-ScrollArea-viewport');
    const widths = await viewport.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(widths.scroll).toBeGreaterThan(widths.client);
    for (const left of [0, widths.scroll / 2, widths.scroll]) {
      await viewport.evaluate((el, x) => el.scrollTo({ left: x }), left);
      await page.waitForTimeout(100);
      expect(await inView(menuButton), `the row menu at scrollLeft ${left}`).toBe(true);
      expect(await inView(nameCell), `the name at scrollLeft ${left}`).toBe(true);
    }
    await screenshot(page, 'phone-users-scrolled');
    // The menu opens and its dialog fits the phone.
    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(PHONE.width);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('the import preview breaks emails at their parts, never letter by letter', async () => {
    const page = await phonePage();
    await page.goto(`/${riversideId}/users`);
    await loadedRows(page, 'Users');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog');
    const emails = [
      'ava.garcia-fernandez@riverside-unified-school-district.example.test',
      'marcia.lopez@riverside.test',
      'bartholomew.featherstonehaugh-worthington@example.test',
    ];
    await dialog.getByLabel('CSV file').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `email,user_name,user_role\n${emails.map((email, i) => `${email},Person ${i + 1},user`).join('\n')}\nnot-an-email-address-at-all-but-rather-long,Bad Row,user\n`,
      ),
    });
    const table = dialog.getByRole('table', { name: 'Users to add' });
    await table.waitFor();
    for (const email of emails) {
      const cell = table.getByRole('cell', { name: email, exact: true });
      // The cell's text lines: one per part at most (parts: before the @, then after each dot).
      const lines = await cell.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      const parts = email.split(/(?=@)|(?<=\.)/).length;
      expect(lines, email).toBeLessThanOrEqual(parts);
      // And no line is a letter or two: the narrowest line holds at least a short part.
      const narrowest = await cell.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        // (a <wbr> gives an empty box of its own)
        return Math.min(...[...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.width));
      });
      expect(narrowest, email).toBeGreaterThan(20);
    }
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'phone-import-preview');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('the header names the organization; the menu says who is signed in', async () => {
    const page = await phonePage();
    await waitForHeading(page, 'General information');
    const header = page.getByRole('banner');
    // Issue 33, item 11: the organization and the way to one's account, in the header of a phone.
    await header.getByRole('heading', { name: DEMO_ROOT, level: 2 }).waitFor();
    expect(await header.getByRole('heading', { name: DEMO_ROOT, level: 2 }).isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'Account' }).isVisible()).toBe(true);
    expect(await header.getByText(OWNER).isVisible()).toBe(false);
    await screenshot(page, 'phone-header');
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    const menu = page.locator('#dashboard-navbar');
    await menu.getByText('Signed in as').waitFor();
    expect(await menu.getByText(OWNER).isVisible()).toBe(true);
    expect(await menu.getByText('Owner', { exact: true }).isVisible()).toBe(true);
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'phone-menu-signed-in-as');
  });
});
