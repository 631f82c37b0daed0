import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { totpCodeAt } from '../apps/server/test/support/totp';
import { apiToken } from './support/api';
import { failedResource, login, readSession, screenshot, waitForSignedIn } from './support/browser';
import { createMember, createOrganization, setUpAccount } from './support/builders';
import { browserSuite, signIn, uniqueName } from './support/suite';
import './support/context';

/**
 * Two-factor sign-in in the browser (issue 30, item 6; decision 015). A tree of its own (a district and a
 * school, their owner and admin invited and set up through the API), so that no other test file meets the
 * requirement it sets. TOTP codes are computed here with otplib from the key the page shows.
 */
const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);
const PASSWORD = 'two-factor-e2e-password';
const PHONE = { width: 390, height: 844 };
const WRONG_CODE =
  'That code is not valid, or it was already used. Try the newest code of your authenticator app.';

let smtp: SmtpCatcher;
let systemAdmin = '';
const tree = { district: '', districtName: '', school: '', schoolName: '' };
const owner = { email: '', secret: '', recoveryCodes: [] as string[] };
const schoolAdmin = { email: '', name: 'Sol Schooladmin' };

beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  systemAdmin = await apiToken(baseUrl, inject('adminEmail'), inject('adminPassword'));
  const tag = uniqueName('mfa').replace(/\s+/g, '-').toLowerCase();
  owner.email = `owner-${tag}@two-factor.test`;
  schoolAdmin.email = `admin-${tag}@two-factor.test`;
  tree.districtName = uniqueName('Two-Factor District');
  tree.schoolName = uniqueName('Two-Factor School');
  tree.district = await createOrganization(baseUrl, systemAdmin, {
    name: tree.districtName,
    type: 'district',
    phoneNumber: '555 010 3000',
    parentOrganizationId: null,
    adminEmail: owner.email,
    adminName: 'Olive Owner',
  });
  await setUpAccount(baseUrl, smtp, owner.email, PASSWORD);
  tree.school = await createOrganization(baseUrl, systemAdmin, {
    name: tree.schoolName,
    type: 'school',
    phoneNumber: '555 010 3000',
    parentOrganizationId: tree.district,
  });
  await createMember(baseUrl, smtp, systemAdmin, {
    email: schoolAdmin.email,
    name: schoolAdmin.name,
    organizationId: tree.school,
    role: 'organization_admin',
    password: PASSWORD,
  });
});
afterAll(() => smtp?.stop());

/** The picture of a screen at the desktop size and at 390 px wide (e2e/screenshots). */
async function shoot(page: Page, name: string) {
  // From the top: a full-page picture of a scrolled page draws the fixed header and menu where the view was.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  const desktop = page.viewportSize();
  await page.setViewportSize(PHONE);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-390`);
  if (desktop) await page.setViewportSize(desktop);
}

/** The last time step each secret's code was used for: the server takes each code once. */
const usedSteps = new Map<string, number>();
/** A code the server has not seen yet: this step's, the next one's, or (both used) the one after a short wait. */
async function freshCode(secret: string): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / 1000 / 30);
    const step = [now, now + 1].find((s) => s > (usedSteps.get(secret) ?? -1));
    if (step !== undefined) {
      usedSteps.set(secret, step);
      return totpCodeAt(secret, step);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** The key the set-up shows, without the spaces that group it for reading. */
async function setupKey(page: Page): Promise<string> {
  const key = page.getByRole('group', { name: 'Setup key' });
  await key.waitFor();
  return (await key.innerText()).replace(/\s+/g, '');
}

async function codeStep(page: Page, email: string) {
  await login(page, email, PASSWORD);
  await page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 }).waitFor();
}

describe('two-factor sign-in', () => {
  test('the owner turns it on from the account page: QR code, key, first code, recovery codes', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, owner.email, PASSWORD);
    await page.getByRole('link', { name: 'Account' }).first().click();
    await page.getByRole('heading', { name: 'Account security', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: 'Two-factor sign-in' });
    await card.getByText('Off', { exact: true }).waitFor();
    await shoot(page, 'two-factor-account-off');

    await card.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
    await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('The password is not right.').waitFor();
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Continue' }).click();

    const setup = page.getByRole('dialog', { name: 'Set up your authenticator app' });
    await setup.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    owner.secret = await setupKey(page);
    expect(owner.secret).toMatch(/^[A-Z2-7]{32}$/);
    const codeField = setup.getByLabel('Code from the app');
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    await shoot(page, 'two-factor-account-setup');
    await codeField.fill('000000');
    await setup.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await setup.getByText(WRONG_CODE).waitFor();
    await codeField.fill(await freshCode(owner.secret));
    await setup.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();

    const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
    const list = saved.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    owner.recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
    expect(owner.recoveryCodes).toHaveLength(10);
    await shoot(page, 'two-factor-recovery-codes');
    const done = saved.getByRole('button', { name: 'Done' });
    expect(await done.isDisabled()).toBe(true);
    await saved.getByLabel('I have saved my recovery codes').check();
    await done.click();
    await saved.waitFor({ state: 'detached' });
    await card.getByText('On', { exact: true }).waitFor();
    await card.getByText('10 of 10').waitFor();
    await shoot(page, 'two-factor-account-on');
    expect(unexpectedErrors(failedResource(400))).toEqual([]);
  });

  test('signs in with the password and then a code from the app; a wrong code says so', async () => {
    const { page, unexpectedErrors } = await newPage();
    await codeStep(page, owner.email);
    expect(await readSession(page)).toBeNull();
    const code = page.getByLabel('Authentication code');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    await shoot(page, 'two-factor-code-step');
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').getByText(WRONG_CODE).waitFor();
    await shoot(page, 'two-factor-code-wrong');
    // A code of another 30-second step than the one that turned it on: each code works once.
    await code.fill(await freshCode(owner.secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForSignedIn(page);
    await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    expect((await readSession(page))?.userEmail).toBe(owner.email);
    expect(unexpectedErrors(failedResource(400), failedResource(403))).toEqual([]);
  });

  test('a recovery code signs in once; the second time it is refused', async () => {
    const code = owner.recoveryCodes[0] as string;
    const first = await newPage();
    await codeStep(first.page, owner.email);
    await first.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await first.page.getByLabel('Recovery code').fill(code);
    await shoot(first.page, 'two-factor-recovery-step');
    await first.page.getByRole('button', { name: 'Verify' }).click();
    await waitForSignedIn(first.page);
    await first.page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();

    const second = await newPage();
    await codeStep(second.page, owner.email);
    await second.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await second.page.getByLabel('Recovery code').fill(code);
    await second.page.getByRole('button', { name: 'Verify' }).click();
    await second.page.getByRole('alert').getByText(WRONG_CODE).waitFor();
    expect(await readSession(second.page)).toBeNull();
    expect(second.unexpectedErrors(failedResource(400), failedResource(403))).toEqual([]);
  });

  test('the owner requires it of the tree; the school’s admin is walked through setting it up first', async () => {
    const { page } = await newPage();
    await codeStep(page, owner.email);
    await page.getByLabel('Authentication code').fill(await freshCode(owner.secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: 'Sign-in security' });
    const toggle = card.getByRole('switch', { name: 'Require two-factor sign-in for owners and admins' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click({ force: true });
    const confirm = page.getByRole('dialog', { name: 'Require two-factor sign-in?' });
    await confirm.waitFor();
    await shoot(page, 'two-factor-require-confirm');
    await confirm.getByRole('button', { name: 'Require two-factor' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => toggle.isChecked(), { timeout: 5_000 }).toBe(true);
    await shoot(page, 'two-factor-require-on');

    const admin = await newPage();
    await login(admin.page, schoolAdmin.email, PASSWORD);
    await admin.page.getByRole('heading', { name: 'Set up two-factor sign-in', level: 1 }).waitFor();
    await admin.page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    expect(await readSession(admin.page)).toBeNull();
    await shoot(admin.page, 'two-factor-required-setup');
    const secret = await setupKey(admin.page);
    await admin.page.getByLabel('Code from the app').fill(await freshCode(secret));
    await admin.page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await admin.page.getByRole('heading', { name: 'Save your recovery codes', level: 1 }).waitFor();
    await shoot(admin.page, 'two-factor-required-codes');
    await admin.page.getByLabel('I have saved my recovery codes').check();
    await admin.page.getByRole('button', { name: 'Continue to Allot' }).click();
    await waitForSignedIn(admin.page);
    await admin.page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    expect((await readSession(admin.page))?.userEmail).toBe(schoolAdmin.email);
    // The school shows where the rule comes from; its own switch is not the owner's to turn off here.
    const schoolCard = admin.page.getByRole('region', { name: 'Sign-in security' });
    await schoolCard.getByText(`Required by ${tree.districtName} for everything below it.`).waitFor();
    await schoolCard.getByText('Required', { exact: true }).waitFor();
    expect(await schoolCard.getByRole('switch').count()).toBe(0);
    await shoot(admin.page, 'two-factor-required-by-district');
    expect(admin.unexpectedErrors(failedResource(403))).toEqual([]);
  });

  test('a system admin resets the school admin’s two-factor; their next sign-in sets it up again', async () => {
    const { page } = await newPage();
    await signIn(page, inject('adminEmail'), inject('adminPassword'));
    // The picker's header with every link a system admin has (Price list, Account, Sign out), phone too.
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Account' }).waitFor();
    await shoot(page, 'two-factor-header-system-admin');
    await page.goto(`/${tree.school}/users`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: `Actions for ${schoolAdmin.name}` }).click();
    await page.getByRole('menuitem', { name: 'Reset two-factor' }).click();
    const dialog = page.getByRole('dialog', { name: `Reset two-factor sign-in of ${schoolAdmin.name}?` });
    await dialog.waitFor();
    await shoot(page, 'two-factor-reset-confirm');
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`${schoolAdmin.name} signs in with their password now.`).waitFor();

    const admin = await newPage();
    await login(admin.page, schoolAdmin.email, PASSWORD);
    await admin.page.getByRole('heading', { name: 'Set up two-factor sign-in', level: 1 }).waitFor();
  });
});
