import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { apiToken } from './support/api';
import { axeViolations } from './support/axe';
import { screenshot } from './support/browser';
import {
  createCreditsInvoice,
  firstCreditPack,
  myOrganizationId,
  subOrganizationIds,
  voidInvoice,
} from './support/builders';
import { footerNav, loadedRows, mainNav, openScreen, waitForHeading } from './support/screens';
import { browserSuite, signIn } from './support/suite';
import './support/context';

/*
 * Issue 14, item 7: every screen and every dialog passes axe's WCAG 2.1 A and AA rules, as a system admin
 * and as an owner, and the public screens too; then what axe cannot see: the skip link, aria-sort, the empty
 * text of tables, where the focus goes after a dialog opened from a row menu, the footer's links.
 *
 * One signed-in page goes through all the screens of a role (the dialogs are opened and closed, nothing is
 * saved), so the file takes about a minute. The file changes no data but one open invoice of the demo
 * district (for the invoice screens and dialogs), voided at the end.
 */
const baseUrl = inject('baseUrl');
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
const ADMIN_NAME = 'Adam Reyes';
const TEACHER_NAME = 'Tess Morgan';
const NO_RESULTS = 'No search results found. Please try again.';

let ownerToken: string;
let adminToken: string;
let riversideId: string;
let hillcrestId: string;
let northsideId: string;
let invoice: { id: string; number: string };

beforeAll(async () => {
  ownerToken = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  adminToken = await apiToken(baseUrl, adminEmail, adminPassword);
  riversideId = await myOrganizationId(baseUrl, ownerToken, DEMO_ROOT);
  expect(riversideId).not.toBe('');
  const subOrganizationId = await subOrganizationIds(baseUrl, ownerToken, riversideId);
  hillcrestId = subOrganizationId('Hillcrest High');
  expect(hillcrestId).not.toBe('');
  northsideId = subOrganizationId('Northside Elementary');
  expect(northsideId).not.toBe('');
  // An open invoice: the invoices table with its Fulfil menu, the invoice page, the fulfil and void dialogs.
  invoice = await createCreditsInvoice(baseUrl, ownerToken, {
    organizationId: riversideId,
    credits: await firstCreditPack(baseUrl, ownerToken),
    customerEmail: OWNER,
  });
});

afterAll(async () => {
  if (invoice) await voidInvoice(baseUrl, adminToken, invoice.id);
});

/** Collects the violations of every state a test walks through, so that one run names them all. */
function auditor(page: Page) {
  const found: string[] = [];
  let audited = 0;
  return {
    found,
    get audited() {
      return audited;
    },
    /** Audits the page, or only the part `within` selects (an open dialog or menu: the page was audited). */
    async audit(where: string, within?: string): Promise<void> {
      audited += 1;
      const started = Date.now();
      const more = await axeViolations(page, where, within);
      found.push(...more);
      if (process.env.A11Y_TIMES) console.log(`${Date.now() - started} ms ${where}`, more);
    },
  };
}

/** Waits until a dialog has finished opening (its transition leaves opacity 1) and its loaders are done. */
async function settled(dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await expect
    .poll(() => dialog.evaluate((el) => getComputedStyle(el).opacity), { timeout: 5_000 })
    .toBe('1');
  await dialog
    .locator('.mantine-Loader-root')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
}

/**
 * Waits until a menu has finished opening: audited while it fades in, its items' text reads at a fraction of
 * its colour (a contrast failure that no one sees once it is open).
 */
async function opened(menu: Locator): Promise<void> {
  await menu.waitFor();
  await expect.poll(() => menu.evaluate((el) => getComputedStyle(el).opacity), { timeout: 5_000 }).toBe('1');
}

/** Closes the open dialog with its × (which must be a button named "Close") and waits until it is gone. */
async function closeDialog(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await dialog.waitFor({ state: 'detached' });
}

type Audit = ReturnType<typeof auditor>;

/**
 * Opens a dialog with `opener`, audits it (and, when given, a later step of it), closes it. An opener that
 * is disabled with a reason (aria-disabled, the reason in a tooltip) is audited with its reason shown.
 */
async function auditDialog(
  page: Page,
  audit: Audit,
  opener: Locator,
  where: string,
  step?: (dialog: Locator) => Promise<void>,
): Promise<void> {
  await opener.scrollIntoViewIfNeeded();
  if ((await opener.getAttribute('aria-disabled')) === 'true') {
    await opener.hover();
    await page.getByRole('tooltip').waitFor();
    await audit.audit(`${where} (disabled, reason shown)`);
    await page.mouse.move(0, 0);
    return;
  }
  await opener.click();
  const dialog = page.getByRole('dialog');
  await settled(dialog);
  // The first dialog of a walk is audited with the page around it (landmarks: one banner), the others alone.
  const within = audit.audited > 0 && !where.endsWith('edit organization') ? '[role="dialog"]' : undefined;
  await audit.audit(where, within);
  if (step) {
    await step(dialog);
    await audit.audit(`${where}, next step`, within);
  }
  await closeDialog(page);
}

/** Opens a row's actions menu, audits the page with the menu open, and audits each of its dialogs. */
async function auditRowMenu(page: Page, audit: Audit, name: string, where: string): Promise<void> {
  const menuButton = page.getByRole('button', { name: `Actions for ${name}` });
  await menuButton.click();
  const menu = page.getByRole('menu');
  await opened(menu);
  await audit.audit(`${where}: the row menu of ${name}`, '[role="menu"]');
  const items = await menu.getByRole('menuitem').allInnerTexts();
  expect(items.length).toBeGreaterThan(0);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  for (const item of items) {
    await menuButton.click();
    await auditDialog(
      page,
      audit,
      page.getByRole('menuitem', { name: item.trim(), exact: true }),
      `${where}: ${item.trim()}`,
    );
  }
}

/**
 * General information's Integrations (issue 15): the page with a key listed, Create key and the key shown
 * once, the revocation's confirmation; then the key is revoked for real, so that the walk leaves none.
 */
async function auditIntegrations(page: Page, audit: Audit, role: string): Promise<void> {
  const name = `Accessibility ${role} ${Date.now().toString(36)}`;
  await auditDialog(
    page,
    audit,
    page.getByRole('region', { name: 'Integrations' }).getByRole('button', { name: 'Create key' }),
    `${role}: create integration key`,
    async (dialog) => {
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await dialog.getByRole('button', { name: 'Create key' }).click();
      await page
        .getByRole('dialog', { name: 'Copy the new key' })
        .getByRole('button', { name: 'Copy key' })
        .waitFor();
    },
  );
  const revoke = page.getByRole('button', { name: `Revoke ${name}` });
  await revoke.waitFor();
  await audit.audit(`${role}: general information with an integration key`);
  await auditDialog(page, audit, revoke, `${role}: revoke integration key`);
  await revoke.click();
  const confirm = page.getByRole('dialog', { name: `Revoke ${name}?` });
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await confirm.waitFor({ state: 'detached' });
  await revoke.waitFor({ state: 'detached' });
}

/** Every screen of an organization and every dialog there, for a role that may do everything on it. */
async function auditOrganization(page: Page, audit: Audit, role: 'system admin' | 'owner'): Promise<void> {
  const admin = role === 'system admin';
  await page.goto(`/${riversideId}`);
  await waitForHeading(page, 'General information');
  await audit.audit(`${role}: general information`);
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Edit', exact: true }),
    `${role}: edit organization`,
  );
  if (admin) {
    await auditDialog(
      page,
      audit,
      page.getByRole('button', { name: 'Allocate credits' }),
      `${role}: allocate system credits`,
    );
  }
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Manage credits' }),
    `${role}: manage credits`,
  );
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Buy more credits' }),
    `${role}: buy more credits`,
  );
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Delete organization' }),
    `${role}: delete organization`,
  );
  await auditIntegrations(page, audit, role);

  await openScreen(page, 'Licenses');
  await loadedRows(page, 'Invoices');
  await audit.audit(`${role}: licences`);
  for (const licence of ['Chorus', 'TLE Teacher']) {
    await auditDialog(
      page,
      audit,
      page.getByRole('button', { name: `Extend the ${licence} licence` }),
      `${role}: extend ${licence}`,
    );
  }
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Add more Chorus seats' }),
    `${role}: add more seats`,
  );
  if (admin) {
    await auditDialog(
      page,
      audit,
      page.getByRole('button', { name: 'Edit the Chorus licence' }),
      `${role}: edit licence`,
    );
    await auditDialog(
      page,
      audit,
      page.getByRole('button', { name: 'Delete the Chorus licence' }),
      `${role}: delete licence`,
    );
    await page.getByRole('button', { name: `Fulfil ${invoice.number}` }).click();
    await opened(page.getByRole('menu'));
    await audit.audit(`${role}: the fulfil menu of an invoice`, '[role="menu"]');
    const methods = await page.getByRole('menuitem').allInnerTexts();
    await page.keyboard.press('Escape');
    for (const method of methods) {
      await page.getByRole('button', { name: `Fulfil ${invoice.number}` }).click();
      await auditDialog(
        page,
        audit,
        page.getByRole('menuitem', { name: method.trim(), exact: true }),
        `${role}: invoice, ${method.trim()}`,
      );
    }
  }
  await page.getByRole('link', { name: `Open ${invoice.number}` }).click();
  await page.getByRole('article').getByText(invoice.number).first().waitFor();
  await audit.audit(`${role}: invoice page`);
  await page.goBack();
  await loadedRows(page, 'Invoices');

  // A school without licences: buying (owner) or creating (system admin) the first one.
  await page.goto(`/${hillcrestId}/licenses`);
  await waitForHeading(page, 'Licenses');
  await audit.audit(`${role}: licences of an organization without any`);
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Buy a licence' }),
    `${role}: buy a licence`,
  );
  if (admin) {
    await auditDialog(
      page,
      audit,
      page.getByRole('button', { name: 'Create new licence' }),
      `${role}: create licence`,
    );
  }

  await page.goto(`/${riversideId}/users`);
  await waitForHeading(page, 'Users');
  await loadedRows(page, 'Users');
  await audit.audit(`${role}: users`);
  await auditDialog(page, audit, page.getByRole('button', { name: 'Add user' }), `${role}: add user`);
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Import CSV' }),
    `${role}: import users`,
    async (dialog) => {
      await dialog.getByLabel('CSV file').setInputFiles({
        name: 'people.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          'email,user_name,user_role\nava.garcia-fernandez@riverside-unified-school-district.example.test,Ava García,user\nnot-an-email,Bad Row,user\n',
        ),
      });
      await dialog.getByRole('table', { name: 'Users to add' }).waitFor();
    },
  );
  await auditRowMenu(page, audit, ADMIN_NAME, `${role}: users`);
  // The product access panel (its row menu item was audited above, for the product it opens on): a product the
  // district has no licence of (a link and a note per reason), then an entitled teacher of a school.
  await page.getByRole('button', { name: `Actions for ${ADMIN_NAME}` }).click();
  await auditDialog(
    page,
    audit,
    page.getByRole('menuitem', { name: 'Check product access', exact: true }),
    `${role}: product access`,
    async (dialog) => {
      await dialog.getByRole('combobox', { name: 'Product' }).click();
      await page.getByRole('option', { name: 'TLE Creator (no licence here)' }).click();
      await dialog.getByText('Cannot use TLE Creator yet').waitFor();
    },
  );
  await page.getByRole('checkbox', { name: `Select ${ADMIN_NAME}` }).check();
  await audit.audit(`${role}: users, one selected`);
  for (const action of ['Allocate credits', 'Reclaim credits', 'Transfer credits', 'Change licence']) {
    await auditDialog(
      page,
      audit,
      page.getByRole('button', { name: action, exact: true }),
      `${role}: users, ${action}`,
    );
  }
  await auditDialog(
    page,
    audit,
    page.getByRole('region', { name: 'Selected users' }).getByRole('button', { name: 'Remove', exact: true }),
    `${role}: users, remove selected`,
  );
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await page.getByRole('searchbox', { name: 'Search users' }).fill('zzqx nobody');
  await page.getByText(NO_RESULTS).waitFor();
  // The text appears at once, never half faded in (global.css): axe reads it as a person will.
  const fade = await page
    .getByText(NO_RESULTS)
    .evaluate(
      (text) => getComputedStyle(text.closest('.mantine-datatable-empty-state') ?? text).transitionDuration,
    );
  expect(fade).toBe('0s');
  await audit.audit(`${role}: users, a search that finds nothing`);
  await page.getByRole('searchbox', { name: 'Search users' }).fill('');

  await page.goto(`/${northsideId}/users`);
  await waitForHeading(page, 'Users');
  await loadedRows(page, 'Users');
  await page.getByRole('button', { name: `Actions for ${TEACHER_NAME}` }).click();
  await auditDialog(
    page,
    audit,
    page.getByRole('menuitem', { name: 'Check product access', exact: true }),
    `${role}: product access of an entitled teacher`,
  );
  await page.goto(`/${riversideId}/users`);
  await waitForHeading(page, 'Users');

  await openScreen(page, 'Sub organizations');
  await loadedRows(page, 'Sub organizations');
  await audit.audit(`${role}: sub-organizations`);
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Create sub-organization' }),
    `${role}: create sub-organization`,
  );
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Edit Lakeside Middle' }),
    `${role}: edit sub-organization`,
  );
  await auditDialog(
    page,
    audit,
    page.getByRole('button', { name: 'Delete Lakeside Middle' }),
    `${role}: delete sub-organization`,
  );
  await page.getByRole('checkbox', { name: 'Select Lakeside Middle' }).check();
  await audit.audit(`${role}: sub-organizations, one selected`);
  for (const action of [
    'Allocate credits',
    'Reclaim credits',
    'Transfer credits',
    'Allocate licences',
    'Reclaim licences',
  ]) {
    await auditDialog(
      page,
      audit,
      page.getByRole('button', { name: action, exact: true }),
      `${role}: sub-organizations, ${action}`,
    );
  }
  await page.getByRole('button', { name: 'Clear selection' }).click();

  await openScreen(page, 'Credit log');
  await page.getByRole('table', { name: 'Credit log' }).locator('tbody tr').first().waitFor();
  await audit.audit(`${role}: credit log`);
}

describe('axe: WCAG 2.1 A and AA on every screen and dialog', () => {
  test('the public screens: sign-in (and a failed one), forgot password, register verify, a broken reset link', async () => {
    const { page } = await newPage();
    const audit = auditor(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await audit.audit('sign-in');
    await page.getByLabel('Email', { exact: true }).fill(OWNER);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').first().waitFor();
    await audit.audit('sign-in, wrong password');
    await page.reload();
    // Submitted empty: the fields' own errors.
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('.mantine-InputWrapper-error').first().waitFor();
    await audit.audit('sign-in, empty fields');
    await page.goto('/forgot');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await audit.audit('forgot password');
    await page.goto(`/register/verify?email=${encodeURIComponent('pending@hillcrest.test')}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await audit.audit('register verify');
    await page.goto('/password/token/00000000-0000-0000-0000-000000000000/not-a-token');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await audit.audit('reset password, a broken link');
    expect(audit.found).toEqual([]);
    expect(audit.audited).toBe(6);
  });

  test('a system admin: the organizations, the price list, every screen and dialog of an organization', async () => {
    const { page } = await newPage();
    const audit = auditor(page);
    await signIn(page, adminEmail, adminPassword);
    // With one root organization the sign-in opens it (with more, the list): Home is the list.
    const menu = mainNav(page);
    if ((await menu.count()) > 0) await menu.getByRole('link', { name: 'Home', exact: true }).click();
    await waitForHeading(page, 'Organizations');
    await audit.audit('system admin: organizations');
    await auditDialog(
      page,
      audit,
      page.getByRole('button', { name: 'Add organization' }),
      'system admin: add organization',
    );
    await page.getByRole('link', { name: 'Price list' }).first().click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The screen, not its loading placeholder.
    await page.getByRole('form', { name: 'Price list' }).waitFor();
    await audit.audit('system admin: price list');
    await auditOrganization(page, audit, 'system admin');
    expect(audit.found).toEqual([]);
    expect(audit.audited).toBeGreaterThan(40);
  }, 600_000);

  test('an owner: every screen and dialog of the district', async () => {
    const { page } = await newPage();
    const audit = auditor(page);
    await signIn(page, OWNER, DEMO_PASSWORD);
    await auditOrganization(page, audit, 'owner');
    await mainNav(page).getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await audit.audit('owner: home');
    expect(audit.found).toEqual([]);
    expect(audit.audited).toBeGreaterThan(30);
  }, 600_000);
});

describe('what axe does not see', () => {
  test('"Skip to content" is the first tab stop, shows when focused and takes the focus to the content', async () => {
    const { page } = await newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const skip = page.getByRole('link', { name: 'Skip to content' });
    const box = () => skip.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    const skipFocused = () => skip.evaluate((el) => el === document.activeElement);
    // Out of sight until focused (clipped to a pixel), then shown at the top of the window.
    expect((await box()).width).toBeLessThanOrEqual(1);
    // The sign-in form puts the focus in Email; the link is still the first focusable element of the page.
    const firstFocusable = await page.evaluate(
      () =>
        document.querySelector<HTMLElement>(
          'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])',
        )?.textContent,
    );
    expect(firstFocusable).toBe('Skip to content');
    await skip.focus();
    const shown = await box();
    expect(shown.width).toBeGreaterThan(50);
    expect(shown.top).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
    await page.keyboard.press('Tab');
    expect(
      await page.getByLabel('Email', { exact: true }).evaluate((el) => el === document.activeElement),
    ).toBe(true);

    // The dashboard: past the brand, the menu's items and the rest of the header in one step.
    await signIn(page, OWNER, DEMO_PASSWORD);
    await page.goto(`/${riversideId}/users`);
    await loadedRows(page, 'Users');
    await page.keyboard.press('Tab');
    expect(await skipFocused()).toBe(true);
    expect((await box()).width).toBeGreaterThan(50);
    await page.screenshot({ path: await screenshot(page, 'a11y-skip-link') });
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
    await page.keyboard.press('Tab');
    // The first control of the content: the breadcrumb's first link.
    const focused = await page.evaluate(() => ({
      text: document.activeElement?.textContent,
      inMain: document.activeElement?.closest('main') !== null,
    }));
    expect(focused).toEqual({ text: 'Home', inMain: true });
  });

  test('sortable headers say the order (aria-sort), and sorting by another column moves it there', async () => {
    const { page } = await newPage();
    await signIn(page, OWNER, DEMO_PASSWORD);
    await page.goto(`/${riversideId}/users`);
    await loadedRows(page, 'Users');
    const table = page.getByRole('table', { name: 'Users' });
    const sortOf = (name: string) => table.getByRole('columnheader', { name }).getAttribute('aria-sort');
    expect(await sortOf('Name')).toBe('ascending');
    expect(await sortOf('Email')).toBe('none');
    expect(await sortOf('Licence')).toBeNull(); // not sortable
    await table.getByRole('button', { name: 'Name' }).click();
    await expect.poll(() => sortOf('Name'), { timeout: 5_000 }).toBe('descending');
    await expect
      .poll(() => table.locator('tbody tr').first().innerText(), { timeout: 5_000 })
      .toContain('Olivia Owens');
    await table.getByRole('button', { name: 'Email' }).click();
    await expect.poll(() => sortOf('Email'), { timeout: 5_000 }).toBe('ascending');
    expect(await sortOf('Name')).toBe('none');
  });

  test('a table says it is empty only when it is', async () => {
    const { page } = await newPage();
    await signIn(page, OWNER, DEMO_PASSWORD);
    await page.goto(`/${riversideId}/users`);
    await loadedRows(page, 'Users');
    const table = page
      .locator('.mantine-datatable')
      .filter({ has: page.getByRole('table', { name: 'Users' }) });
    expect(await table.getByText(NO_RESULTS).count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search users' }).fill('zzqx nobody');
    await table.getByText(NO_RESULTS).waitFor();
    await page.getByRole('searchbox', { name: 'Search users' }).fill('');
    await loadedRows(page, 'Users');
    await expect.poll(() => table.getByText(NO_RESULTS).count(), { timeout: 5_000 }).toBe(0);
  });

  test("a dialog opened from a row's menu gives the focus back to that menu's button, by mouse and by keyboard", async () => {
    const { page } = await newPage();
    await signIn(page, OWNER, DEMO_PASSWORD);
    await page.goto(`/${riversideId}/users`);
    await loadedRows(page, 'Users');
    const menuButton = page.getByRole('button', { name: `Actions for ${ADMIN_NAME}` });
    const hasFocus = () => menuButton.evaluate((el) => el === document.activeElement);

    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await settled(page.getByRole('dialog'));
    await closeDialog(page);
    await expect.poll(hasFocus, { timeout: 5_000 }).toBe(true);

    // By keyboard: Enter opens the menu, the arrows go to Change role, Enter opens it, Escape closes it.
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    const focusedItem = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    for (let step = 0; step < 6 && (await focusedItem()) !== 'Change role'; step += 1) {
      await page.keyboard.press('ArrowDown');
    }
    expect(await focusedItem()).toBe('Change role');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await settled(dialog);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(hasFocus, { timeout: 5_000 }).toBe(true);
  });

  test('the footer: the © line and its six links, none that goes nowhere (issue 36; e2e/footer.test.ts)', async () => {
    const { page } = await newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const footer = page.getByRole('contentinfo');
    await footer.getByText(`© ${new Date().getFullYear()} Allot`).waitFor();
    const links = footerNav(page).getByRole('link');
    expect(await links.allTextContents()).toEqual(['Help', 'Contact', 'Terms', 'Privacy', 'FAQ', 'Cookies']);
    expect(await page.locator('a[href^="#"]:not(.skip-link)').count()).toBe(0);
  });
});
