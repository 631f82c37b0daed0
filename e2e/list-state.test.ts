import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { apiToken, callApi } from './support/api';
import { screenshot } from './support/browser';
import { codeIn } from './support/mail';
import { mainNav } from './support/screens';
import { browserSuite, signIn, uniqueName } from './support/suite';
import './support/context';

/*
 * Issue 14, "Lists": search, sort and page live in the URL, so that reload, Back and a shared link keep
 * them; a new sort column starts ascending; the organization search shows where each organization sits.
 */
const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
const NORTHSIDE_ADMIN = 'admin@northside.test';

/** A word no other test uses: every organization this file creates carries it. */
const tag = (uniqueName('Lists').split(' ')[1] ?? 'lists').toLowerCase();
const oak = (n: number) => `Oak ${tag} ${String(n).padStart(2, '0')}`;
const maple = `Maple ${tag}`;
let parentId = '';
const ids: Record<string, string> = {};
const oakIds: string[] = [];
let smtp: SmtpCatcher;
let ownerToken = '';

async function create(token: string, name: string, parentOrganizationId: string): Promise<string> {
  const answer = await callApi<{ id: string }>(baseUrl, 'POST', '/organization/create', {
    token,
    body: { name, type: 'school', phoneNumber: '+1 555-010-9999', parentOrganizationId },
  });
  if (answer.status !== 201) throw new Error(`creating ${name} answered ${answer.status}`);
  return answer.body.id;
}

beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  const token = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  ownerToken = token;
  for (const name of [DEMO_ROOT, 'Northside Elementary', 'Lakeside Middle']) {
    const found = await callApi<{ data: { id: string; name: string }[] }>(
      baseUrl,
      'GET',
      `/organization/search?search=${encodeURIComponent(name)}`,
      { token },
    );
    const id = found.body.data.find((o) => o.name === name)?.id;
    if (!id) throw new Error(`${name} not found`);
    ids[name] = id;
  }
  // 25 sub-organizations of one parent: two pages of 20 in the table, three of 12 in Home's results.
  parentId = await create(token, `Lists ${tag}`, ids[DEMO_ROOT] ?? '');
  for (let n = 1; n <= 25; n++) oakIds.push(await create(token, oak(n), parentId));
  // Two schools of one name in two places.
  await create(token, maple, ids['Northside Elementary'] ?? '');
  await create(token, maple, ids['Lakeside Middle'] ?? '');
}, 120_000);
afterAll(() => smtp?.stop());

async function goHome(page: Page): Promise<void> {
  await mainNav(page).getByRole('link', { name: 'Home', exact: true }).click();
  await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
}

/** Waits up to 10 s (the machine is shared; a debounced write and its answer take a moment). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
const historyLength = (page: Page) => page.evaluate(() => window.history.length);

/** The names in the table's rows, top to bottom. */
async function rowNames(page: Page): Promise<string[]> {
  const rows = page.getByRole('table').getByRole('row');
  const names: string[] = [];
  for (const row of await rows.all()) {
    const link = row.getByRole('link');
    if ((await link.count()) > 0) names.push(((await link.first().textContent()) ?? '').trim());
  }
  return names;
}

/** Waits until the table's first row is `first` and it holds `count` rows. */
async function tableShows(page: Page, first: string, count: number): Promise<void> {
  await eventually(async () => {
    const names = await rowNames(page);
    return [names[0], names.length];
  }).toEqual([first, count]);
}

function sortButton(page: Page, title: string) {
  return page.getByRole('table').getByRole('button', { name: title, exact: true });
}

describe('a list’s search, sort and page in the URL', () => {
  test('sub-organizations: typing is one history entry, a new column starts ascending, reload and Back keep the list', async () => {
    const { page } = await newPage();
    await signIn(page, OWNER, DEMO_PASSWORD);
    await page.goto(`/${parentId}/sub-organizations`);
    await page.getByRole('heading', { name: 'Sub organizations', level: 1 }).waitFor();
    await tableShows(page, oak(1), 20);

    const before = await historyLength(page);
    const box = page.getByRole('searchbox', { name: 'Search sub-organizations' });
    // A pause after each letter longer than the debounce: each text is written, yet one entry in all.
    await box.pressSequentially('oak', { delay: 450 });
    await eventually(() => params(page)).toEqual({ q: 'oak' });
    expect(await historyLength(page)).toBe(before + 1);

    // Name (sorted ascending) again: descending.
    await sortButton(page, 'Name').click();
    await eventually(() => params(page)).toEqual({ q: 'oak', order: 'desc' });
    await tableShows(page, oak(25), 20);
    // Another column starts ascending, not in the direction the previous one had.
    await sortButton(page, 'Type').click();
    await eventually(() => params(page)).toEqual({ q: 'oak', sort: 'type' });
    await tableShows(page, oak(1), 20);
    await page
      .getByRole('navigation', { name: /pages$/ })
      .getByRole('button', { name: '2', exact: true })
      .click();
    await eventually(() => params(page)).toEqual({ q: 'oak', sort: 'type', page: '2' });
    await tableShows(page, oak(21), 5);
    await screenshot(page, 'list-state-sub-organizations-page-2');

    await page.reload();
    await tableShows(page, oak(21), 5);
    expect(await box.inputValue()).toBe('oak');
    expect(params(page)).toEqual({ q: 'oak', sort: 'type', page: '2' });

    // Back: the previous page, then the previous sort, then the list before the search.
    await page.goBack();
    await eventually(() => params(page)).toEqual({ q: 'oak', sort: 'type' });
    await tableShows(page, oak(1), 20);
    await page.goBack();
    await eventually(() => params(page)).toEqual({ q: 'oak', order: 'desc' });
    await tableShows(page, oak(25), 20);
    await page.goBack();
    await page.goBack();
    await eventually(() => params(page)).toEqual({});
    await eventually(() => box.inputValue()).toBe('');
    await tableShows(page, oak(1), 20);

    // A shared link opens the same list (type descending, page 2).
    const { page: other } = await newPage();
    await signIn(other, OWNER, DEMO_PASSWORD);
    await other.goto(`/${parentId}/sub-organizations?q=oak&sort=type&order=desc&page=2`);
    await tableShows(other, oak(5), 5);
    expect(await other.getByRole('searchbox', { name: 'Search sub-organizations' }).inputValue()).toBe('oak');
  });

  test('a page loaded after another in the same tab stays where the person scrolled it', async () => {
    const { page } = await newPage();
    // Signing in loads the sign-in page first in this tab; the list below is the tab's second page load.
    await signIn(page, OWNER, DEMO_PASSWORD);
    await page.goto(`/${parentId}/sub-organizations`);
    await page.getByRole('heading', { name: 'Sub organizations', level: 1 }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled, 'the page is taller than the window').toBeGreaterThan(0);
    await tableShows(page, oak(1), 20);
    // The first load's position (the top) was restored here once the page had settled, half a second late.
    for (let i = 0; i < 10; i++) {
      await page.waitForTimeout(200);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    }
  });

  test('leaving a list while its search is still being written goes where the person clicked', async () => {
    const { page } = await newPage();
    await signIn(page, OWNER, DEMO_PASSWORD);
    await page.goto(`/${ids[DEMO_ROOT]}/users`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    // The next screen's code arrives late (a slow network, a busy machine): the search's debounced write
    // falls due while the Users screen is still shown, and must not take the person back to it.
    await page.route('**/assets/sub-organizations-screen-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.getByRole('searchbox', { name: 'Search users' }).fill('zz');
    await mainNav(page).getByRole('link', { name: 'Sub organizations', exact: true }).click();
    await page.getByRole('heading', { name: 'Sub organizations', level: 1 }).waitFor();
    await page.waitForTimeout(1_000);
    expect(new URL(page.url()).pathname).toBe(`/${ids[DEMO_ROOT]}/sub-organizations`);
    await page.getByRole('heading', { name: 'Sub organizations', level: 1 }).waitFor();
  });

  test('Home: search results show where each organization sits; search and page survive reload and Back', async () => {
    const { page } = await newPage();
    await signIn(page, OWNER, DEMO_PASSWORD);
    await goHome(page);
    const box = page.getByRole('searchbox', { name: 'Search organizations and users' });
    await box.fill(maple.toLowerCase());
    await eventually(() => params(page)).toEqual({ q: maple.toLowerCase() });
    const cards = page.getByRole('article', { name: maple, exact: true });
    await eventually(() => cards.count()).toBe(2);
    const paths = await page.locator('[data-organization-path]').allTextContents();
    expect(paths.sort()).toEqual([
      `${DEMO_ROOT} › Lakeside Middle › ${maple}`,
      `${DEMO_ROOT} › Northside Elementary › ${maple}`,
    ]);
    await screenshot(page, 'list-state-home-search-path');

    await box.fill(`oak ${tag}`);
    await eventually(() => params(page)).toEqual({ q: `oak ${tag}` });
    await page.getByRole('article', { name: oak(1), exact: true }).waitFor();
    const pager = page.getByRole('navigation', { name: 'Organization results pages' });
    await pager.getByRole('button', { name: '2', exact: true }).click();
    await eventually(() => params(page)).toEqual({ q: `oak ${tag}`, orgPage: '2' });
    await page.getByRole('article', { name: oak(13), exact: true }).waitFor();
    // Each Oak card says it sits under the new parent, a link to it.
    const path = page
      .getByRole('article', { name: oak(13), exact: true })
      .locator('[data-organization-path]');
    expect(await path.textContent()).toBe(`${DEMO_ROOT} › Lists ${tag} › ${oak(13)}`);
    await screenshot(page, 'list-state-home-page-2');

    // Reload keeps the picker (the owner has one organization: Home would open it), the search and the page.
    await page.reload();
    await page.getByRole('article', { name: oak(13), exact: true }).waitFor();
    expect(await box.inputValue()).toBe(`oak ${tag}`);

    await page.goBack();
    await eventually(() => params(page)).toEqual({ q: `oak ${tag}` });
    await page.getByRole('article', { name: oak(1), exact: true }).waitFor();
    // Typing on in the box replaced its entry ("maple…" became "oak…"): one more Back leaves the search.
    await page.goBack();
    await eventually(() => params(page)).toEqual({});
    await page.getByRole('article', { name: DEMO_ROOT, exact: true }).waitFor();
    expect(await box.inputValue()).toBe('');
  });

  test('a school admin sees the path from its school down, not the district above it', async () => {
    const { page } = await newPage();
    await signIn(page, NORTHSIDE_ADMIN, DEMO_PASSWORD);
    await goHome(page);
    await page.getByRole('searchbox', { name: 'Search organizations and users' }).fill(maple.toLowerCase());
    const card = page.getByRole('article', { name: maple, exact: true });
    await card.waitFor();
    expect(await card.count()).toBe(1);
    expect(await card.locator('[data-organization-path]').textContent()).toBe(
      `Northside Elementary › ${maple}`,
    );
    await screenshot(page, 'list-state-home-school-admin-path');
    // The ancestor in the path opens that organization.
    await card.getByRole('link', { name: 'Northside Elementary', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/${ids['Northside Elementary']}`);
  });
});

describe('Home’s own organizations', () => {
  const ADMIN = {
    email: `picker-${tag}@example.test`,
    name: `Picker ${tag}`,
    password: 'e2e-picker-password-1',
  };

  /** Makes ADMIN an admin of the first `count` Oak schools: a new account, then invitations it accepts. */
  async function adminOfOaks(count: number): Promise<void> {
    for (let n = 0; n < count; n++) {
      const created = await callApi(baseUrl, 'POST', '/user/create', {
        token: ownerToken,
        body: { email: ADMIN.email, name: ADMIN.name, organizationId: oakIds[n], role: 'organization_admin' },
      });
      expect(created.status).toBe(201);
      if (n === 0) {
        const mail = await smtp.waitFor(ADMIN.email, (m) => m.subject.startsWith('You are invited'));
        const verified = await callApi(baseUrl, 'POST', '/auth/verify', {
          body: { email: ADMIN.email, code: codeIn(mail.text), password: ADMIN.password },
        });
        expect(verified.status).toBe(200);
      } else {
        const mail = await smtp.waitFor(ADMIN.email, (m) => m.subject === `Join ${oak(n + 1)} on Allot`);
        const accepted = await callApi(baseUrl, 'POST', '/auth/invitation/accept', {
          body: { email: ADMIN.email, organizationId: oakIds[n], code: codeIn(mail.text) },
        });
        expect(accepted.status).toBe(200);
      }
    }
  }

  test('an admin of 13 schools pages the picker; the page survives reload and Back', async () => {
    await adminOfOaks(13);
    const { page } = await newPage();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    await page.getByRole('article', { name: oak(1), exact: true }).waitFor();
    expect(await page.getByRole('article', { name: oak(13), exact: true }).count()).toBe(0);

    const pager = page.getByRole('navigation', { name: 'Organizations pages' });
    await pager.getByRole('button', { name: '2', exact: true }).click();
    await eventually(() => params(page)).toEqual({ page: '2' });
    await page.getByRole('article', { name: oak(13), exact: true }).waitFor();
    expect(await page.getByRole('article', { name: oak(1), exact: true }).count()).toBe(0);
    await screenshot(page, 'list-state-home-picker-page-2');

    await page.reload();
    await page.getByRole('article', { name: oak(13), exact: true }).waitFor();
    expect(params(page)).toEqual({ page: '2' });

    await page.goBack();
    await eventually(() => params(page)).toEqual({});
    await page.getByRole('article', { name: oak(1), exact: true }).waitFor();
  });
});
