import { APP_MSG } from '@allot/domain/messages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import {
  failedResource,
  launchBrowser,
  login,
  openPage,
  readSession,
  screenshot,
  type TestPage,
  waitForSignedIn,
} from './support/browser';
import { mainNav } from './support/screens';
import './support/context';

const baseUrl = inject('baseUrl');
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');

const ALL_NAV_ITEMS = ['Home', 'General information', 'Licenses', 'Users', 'Sub organizations', 'Credit log'];

let browser: Browser;
const opened: TestPage[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const { context } of opened) await context.close();
  await browser?.close();
});

// A failed test leaves a picture and the page's console behind (e2e/screenshots, the test output).
let current: TestPage[] = [];
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') {
    for (const [index, { page, consoleErrors }] of current.entries()) {
      const slug = task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      await screenshot(page, `failed-${slug}-${index}`).catch(() => undefined);
      console.error(`[${task.name}] page ${index} at ${page.url()}; console errors:`, consoleErrors);
    }
  }
  current = [];
});

async function newPage(): Promise<TestPage> {
  const testPage = await openPage(browser, baseUrl);
  opened.push(testPage);
  current.push(testPage);
  return testPage;
}

function demoAccount(role: string) {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role);
  if (!account) throw new Error(`The demo seed has no account with role ${role}`);
  return account;
}

/** The organizations the signed-in user may pick, asked of the API with the page's own session. */
async function myOrganizations(page: Page): Promise<Array<{ id: string; name: string }>> {
  const session = await readSession(page);
  const response = await fetch(`${baseUrl}/api/organization`, {
    headers: { Authorization: `Bearer ${String(session?.secToken)}` },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as Array<{ id: string; name: string }> | { id: string; name: string };
  return Array.isArray(body) ? body : [body];
}

/** After sign-in: one organization opens directly, several show the picker (spec §4). */
async function enterOrganization(page: Page, name: string): Promise<void> {
  await waitForSignedIn(page);
  if (new URL(page.url()).pathname === '/') {
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    await screenshot(page, 'home-picker');
    await page.getByRole('link', { name: `Manage ${name}` }).click();
  }
  await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
}

describe('sign in', () => {
  test('client validation uses the spec texts', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByText('Field is required.').count(), { timeout: 5_000 }).toBe(2);

    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('whatever');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.getByText('Invalid e-mail.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(unexpectedErrors()).toEqual([]);
  });

  test('a wrong password shows the sign-in failure message', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.title()).toBe('Sign in · Allot');
    await screenshot(page, 'login');

    await login(page, adminEmail, 'definitely-not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await alert
      .getByText('Unable to sign in. Please check your credentials and try again.', { exact: true })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await readSession(page)).toBeNull();
    await screenshot(page, 'login-error');
    expect(unexpectedErrors(failedResource(401))).toEqual([]);
  });

  test('the system admin signs in, sees every menu item and the organization, and signs out', async () => {
    const { page, unexpectedErrors } = await newPage();
    await login(page, adminEmail, adminPassword);
    await waitForSignedIn(page);
    const organizations = await myOrganizations(page);
    const riverside = organizations.find((o) => o.name === 'Riverside District');
    expect(riverside, 'the seeded district is a root organization').toBeDefined();
    await enterOrganization(page, 'Riverside District');

    expect(new URL(page.url()).pathname).toBe(`/${riverside?.id}`);
    const nav = mainNav(page);
    for (const label of ALL_NAV_ITEMS) {
      await nav.getByRole('link', { name: label, exact: true }).waitFor();
    }
    await nav.getByRole('button', { name: 'Sign out' }).waitFor();
    await expect(
      nav.getByRole('link', { name: 'General information' }).getAttribute('aria-current'),
    ).resolves.toBe('page');

    // The header and the details show the organization.
    await page.getByRole('banner').getByText('Riverside District').waitFor();
    const details = page.getByRole('region', { name: 'Organization details' });
    await details.getByText('Riverside District').waitFor();
    await details.getByText('District', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Shared pool' }).waitFor();
    await page.getByRole('region', { name: 'Protected pool' }).waitFor();
    // Both work: managing credits (e2e/credits.test.ts) and buying them (e2e/licenses.test.ts).
    for (const name of ['Manage credits', 'Buy more credits']) {
      await expect(page.getByRole('button', { name }).getAttribute('aria-disabled')).resolves.toBeNull();
      await expect(page.getByRole('button', { name }).isEnabled()).resolves.toBe(true);
    }
    expect(await page.title()).toContain('General information');
    await screenshot(page, 'dashboard-general-information');

    // The session holds exactly the spec's fields, and the role of the selected organization.
    const session = await readSession(page);
    expect(Object.keys(session ?? {}).sort()).toEqual(
      ['permissions', 'role', 'secToken', 'signedIn', 'userEmail', 'userId'].sort(),
    );
    expect(session).toMatchObject({ signedIn: true, userEmail: adminEmail, role: 'system_admin' });

    // Another screen: its menu item becomes the active one.
    await nav.getByRole('link', { name: 'Licenses' }).click();
    await page.getByRole('heading', { name: 'Licenses', level: 1 }).waitFor();
    await expect(nav.getByRole('link', { name: 'Licenses' }).getAttribute('aria-current')).resolves.toBe(
      'page',
    );
    await expect(
      nav.getByRole('link', { name: 'General information' }).getAttribute('aria-current'),
    ).resolves.toBeNull();

    await nav.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await readSession(page)).toBeNull();

    // The token was revoked server-side: the old session is not valid any more.
    const validate = await fetch(`${baseUrl}/api/auth/validate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${String(session?.secToken)}` },
      body: JSON.stringify({ id: session?.userId, email: session?.userEmail }),
    });
    const stillValid = validate.ok ? ((await validate.json()) as { valid: boolean }).valid : false;
    expect(stillValid).toBe(false);

    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });

  test('an organization admin sees the menu items their permissions allow', async () => {
    const admin = demoAccount('organization_admin');
    const { page, unexpectedErrors } = await newPage();
    await login(page, admin.email, DEMO_PASSWORD);
    await enterOrganization(page, admin.organization);

    const nav = mainNav(page);
    for (const label of ALL_NAV_ITEMS) {
      await nav.getByRole('link', { name: label, exact: true }).waitFor();
    }
    await page.getByRole('banner').getByText(admin.organization).waitFor();
    await page.getByRole('banner').getByText('Admin', { exact: true }).waitFor();

    // Role and permissions come from the organization's permissionsAndRole: an admin may not delete it.
    const session = await readSession(page);
    expect(session?.role).toBe('organization_admin');
    expect(session?.permissions).toEqual(expect.arrayContaining(['manage_users', 'manage_org_license']));
    expect(session?.permissions).not.toContain('delete_org');
    expect(session?.permissions).not.toContain('create_root_org');
    await screenshot(page, 'dashboard-admin');
    expect(unexpectedErrors()).toEqual([]);
  });

  test('a teacher is told that the panel is not for them', async () => {
    const teacher = demoAccount('user');
    // What the server says to a teacher; the screen must show exactly that.
    const answer = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: teacher.email, password: DEMO_PASSWORD }),
    });
    expect(answer.status).toBe(403);
    const body = (await answer.json()) as { error: string; message: string };
    expect(body.error).toBe('no_panel_access');
    expect(body.message.length).toBeGreaterThan(0);

    const { page, unexpectedErrors } = await newPage();
    await login(page, teacher.email, DEMO_PASSWORD);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await alert.getByText(body.message, { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await readSession(page)).toBeNull();
    await screenshot(page, 'login-teacher');
    expect(unexpectedErrors(failedResource(403))).toEqual([]);
  });
});

describe('guards', () => {
  test('a signed-in user visiting /login is sent to /', async () => {
    const { page, unexpectedErrors } = await newPage();
    await login(page, adminEmail, adminPassword);
    await waitForSignedIn(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .or(page.getByRole('heading', { name: 'Organizations' }))
      .waitFor();
    const organizations = await myOrganizations(page);
    // / itself opens the only organization when there is exactly one (spec §4).
    const expected = organizations.length === 1 ? `/${organizations[0]?.id}` : '/';

    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === expected);
    await expect
      .poll(() => page.getByRole('button', { name: 'Sign in', exact: true }).count(), { timeout: 5_000 })
      .toBe(0);
    expect(unexpectedErrors()).toEqual([]);
  });

  test('a signed-out visitor of a dashboard route is sent to /login', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.goto('/some-organization/users');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });

  test('a stored session the server does not accept is cleared and the visitor sent to /login', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.goto('/login');
    await page.evaluate(() =>
      window.localStorage.setItem(
        'allot.session',
        JSON.stringify({
          signedIn: true,
          secToken: 'revoked-or-made-up-token',
          userId: 'someone',
          userEmail: 'someone@example.org',
          permissions: ['manage_users'],
          role: 'organization_admin',
        }),
      ),
    );
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await readSession(page)).toBeNull();
    expect(unexpectedErrors(failedResource(401))).toEqual([]);
  });

  test('a session that ends mid-work: the sign-in says so and whether the change was made, then goes back', async () => {
    const { page, unexpectedErrors } = await newPage();
    await login(page, adminEmail, adminPassword);
    await waitForSignedIn(page);
    const first = (await myOrganizations(page)).find((o) => o.name === DEMO_ROOT);
    if (!first) throw new Error(`the admin does not see ${DEMO_ROOT}`);
    const where = `/${first.id}`;
    await page.goto(where);
    await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    // The session ends on the server (as a sign-out elsewhere or its expiry would end it).
    const endSession = async () => {
      const session = await readSession(page);
      const response = await fetch(`${baseUrl}/api/auth/logout`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${String(session?.secToken)}` },
      });
      expect(response.status).toBe(200);
    };

    // A change made while the session ends, then sent: refused before anything, and the person is told so.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${first.name}` });
    await edit.getByRole('textbox', { name: 'Name', exact: true }).fill(`${first.name} (not saved)`);
    await endSession();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    const notice = page.getByRole('status').filter({ hasText: 'Your session ended' });
    await notice.getByText(APP_MSG.sessionEndedUnsaved).waitFor();
    // Whose session it was is filled in: the password is what is left to type.
    expect(await page.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(adminEmail);
    await screenshot(page, 'sign-in-session-ended-unsaved');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'phone-sign-in-session-ended-unsaved');
    await page.setViewportSize({ width: 1366, height: 768 });

    // Signed in again: back on the page, and the change was not made.
    await login(page, adminEmail, adminPassword);
    await page.waitForURL((url) => url.pathname === where);
    const details = page.getByRole('region', { name: 'Organization details' });
    await details.getByText(first.name, { exact: true }).waitFor();
    expect(await page.getByText(`${first.name} (not saved)`).count()).toBe(0);

    // A session that ends while reading: the plain notice, and back again after signing in.
    await endSession();
    await page.reload();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('status').getByText(APP_MSG.sessionEnded).waitFor();
    await screenshot(page, 'sign-in-session-ended');
    await login(page, adminEmail, adminPassword);
    await page.waitForURL((url) => url.pathname === where);
    await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    expect(unexpectedErrors(failedResource(401))).toEqual([]);
  });

  test('an unknown organization shows a clear not-found state with a way home', async () => {
    const { page, unexpectedErrors } = await newPage();
    await login(page, adminEmail, adminPassword);
    await waitForSignedIn(page);
    await page.goto('/00000000-0000-4000-8000-000000000000');
    await page.getByText('Organization not found').waitFor();
    await page.getByRole('link', { name: 'Go home' }).waitFor();
    await screenshot(page, 'organization-not-found');
    expect(unexpectedErrors(failedResource(404))).toEqual([]);
  });
});
