import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MSG } from '@allot/domain/messages';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { apiToken, callApi } from './support/api';
import { createOrganization, setUpAccount } from './support/builders';
import { mainNav, screenshotFromTop as screenshot, waitForHeading } from './support/screens';
import { browserSuite, signIn, uniqueDomain, uniqueName } from './support/suite';
import './support/context';

const baseUrl = inject('baseUrl');
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');
const { newPage } = browserSuite(baseUrl);

// Issue 13 (CONTRACT §1, Search): word-prefix search and a capped total. A fresh district whose owner has
// more than 1,000 teachers named García or Garcia, Ava García, and Marcia López, whose name holds 'arci'
// only inside a word (as García does).
const PASSWORD = 'e2e-scale-owner-2026';
const OWNER_NAME = 'Olga Ortega';
const district = uniqueName('E2E Scale District');
const domain = uniqueDomain('scale');
let districtId: string;
let ownerEmail: string;
let smtp: SmtpCatcher;

// Every first name sorts after 'Ava': Ava García is the first García by name.
const FIRST_NAMES = `
  Beatriz Bruno Camila Carlos Daniela Diego Elena Emilio Fernanda Gabriel Hugo Inés Javier Julia
  Lucía Manuel Martina Nicolás Olivia Pablo Paula Rafael Rosa Santiago Sofía Tomás Valentina
  Víctor Ximena Zoe
`
  .trim()
  .split(/\s+/);
const SECOND_SURNAMES = `
  Torres Ruiz Moreno Navarro Romero Díaz Vega Castro Ortiz Molina Serrano Blanco Suárez Medina
  Herrera Aguilar Ramos Flores Rojas Cruz Reyes Luna Campos Vargas Méndez Silva Peña Ibáñez León
  Soto Fuentes Rivas Pardo Mora Nieto Prieto Lozano
`
  .trim()
  .split(/\s+/);
/** Teachers named García (half with the accent, half without) besides Ava. */
const GARCIAS = 1_040;
/** Everyone 'garcía' finds: the teachers above and Ava García. */
const GARCIA_MATCHES = GARCIAS + 1;
/** The district's members: the Garcías, Ava, Marcia and the owner. */
const MEMBERS = GARCIAS + 3;
const PAGE_SIZE = 20;

const ascii = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

function teachers(): { email: string; name: string; role: string }[] {
  const rows = [
    { email: `ava.garcia@${domain}`, name: 'Ava García', role: 'user' },
    { email: `marcia.lopez@${domain}`, name: 'Marcia López', role: 'user' },
  ];
  for (let i = 0; i < GARCIAS; i += 1) {
    const first = FIRST_NAMES[i % FIRST_NAMES.length] as string;
    const second = SECOND_SURNAMES[Math.floor(i / FIRST_NAMES.length) % SECOND_SURNAMES.length] as string;
    const garcia = i % 2 === 0 ? 'García' : 'Garcia';
    rows.push({
      email: `${ascii(first)}.${ascii(second)}.${i}@${domain}`,
      name: `${first} ${garcia} ${second}`,
      role: 'user',
    });
  }
  return rows;
}

beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  const adminToken = await apiToken(baseUrl, adminEmail, adminPassword);
  ownerEmail = `olga.ortega@${domain}`;
  districtId = await createOrganization(baseUrl, adminToken, {
    name: district,
    type: 'district',
    phoneNumber: '+1 555 010 7000',
    parentOrganizationId: null,
    adminName: OWNER_NAME,
    adminEmail: ownerEmail,
  });
  await setUpAccount(baseUrl, smtp, ownerEmail, PASSWORD);

  // The teachers in one import (a few set-based statements on the server), as an owner would bring them.
  const ownerToken = await apiToken(baseUrl, ownerEmail, PASSWORD);
  const importStarted = Date.now();
  const imported = await callApi<{ added: unknown[]; skipped: unknown[] }>(baseUrl, 'POST', '/user/bulk', {
    token: ownerToken,
    body: { organizationId: districtId, users: teachers() },
  });
  console.log(`[search-at-scale] ${MEMBERS - 1} teachers imported in ${Date.now() - importStarted} ms`);
  expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).toBe(200);
  expect(imported.body.added).toHaveLength(MEMBERS - 1);
  expect(imported.body.skipped).toEqual([]);
});

afterAll(async () => {
  // The import queued an invitation per teacher, which no test reads: the server sends them while the tests
  // run, and what is left when this file ends stays in the outbox (the catcher stops). This file runs last
  // (e2e/support/sequencer.ts), so no other file's mail waits behind them.
  await smtp?.stop();
});

const SCREENSHOT_DIR = new URL('./screenshots/', import.meta.url).pathname;

/**
 * What the person sees with `locator` in the middle of the 1366×768 window, and `locator` alone, close
 * up: `<name>.png` and `<name>-detail.png` (the full-page pictures put the fixed footer mid-picture).
 */
async function screenshotAround(locator: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await locator.page().waitForTimeout(250);
  await locator.page().screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  await locator.screenshot({ path: join(SCREENSHOT_DIR, `${name}-detail.png`) });
}

const footer = (page: Page) => page.locator('.mantine-datatable-pagination');
const usersTable = (page: Page) => page.getByRole('table', { name: 'Users' });
const pager = (page: Page) => page.getByRole('navigation', { name: 'Users pages' });
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search users' });

/** The table's footer says this range and total ("1–20 of 1,000+"). */
async function footerSays(page: Page, text: string): Promise<void> {
  await page.locator('.mantine-datatable-pagination-text').getByText(text, { exact: true }).waitFor();
}

/** The email of the first row: unique, so it tells one page of the list from another. */
async function firstRowEmail(page: Page): Promise<string> {
  return usersTable(page).locator('tbody tr').first().getByRole('cell').nth(2).innerText();
}

/**
 * Does what turns the page and waits for the new page's rows: until they come, the table keeps the
 * previous page's (dimmed), and the pager knows only the pages the previous answer told of.
 */
async function turnPage(page: Page, action: () => Promise<void>): Promise<void> {
  const before = await firstRowEmail(page);
  await action();
  await expect.poll(() => firstRowEmail(page), { timeout: 10_000 }).not.toBe(before);
  await page.locator('.mantine-datatable-loader-fetching').waitFor({ state: 'detached' });
}

async function firstRowName(page: Page): Promise<string> {
  return (
    (await usersTable(page).locator('tbody tr').first().getByRole('cell').nth(1).innerText()).split(
      '\n',
    )[0] ?? ''
  );
}

async function openUsers(page: Page): Promise<void> {
  await page.goto(`/${districtId}/users`);
  await waitForHeading(page, 'Users');
  await usersTable(page).locator('tbody tr').nth(1).waitFor();
}

async function search(page: Page, text: string): Promise<void> {
  await searchBox(page).fill(text);
}

async function expectCurrentPage(nav: Locator, page: number): Promise<void> {
  await nav.locator('[aria-current="page"]').getByText(String(page), { exact: true }).waitFor();
}

describe('search at scale: word prefixes and a capped total', () => {
  test('a common surname counts “1,000+” and the pages go on past the cap', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await openUsers(page);

    // Not searched: the exact count, as always.
    await footerSays(page, `1–${PAGE_SIZE} of ${MEMBERS.toLocaleString('en-US')}`);
    // The box says what it matches.
    expect(await searchBox(page).getAttribute('placeholder')).toBe(
      'Search by name or email: start of a word',
    );
    await screenshot(page, 'search-at-scale-users-hint');
    await screenshotAround(searchBox(page), 'search-at-scale-users-hint-box');

    await search(page, 'garcía');
    await footerSays(page, '1–20 of 1,000+');
    // With and without the accent, sorted by name: Ava first.
    await expect.poll(() => firstRowName(page), { timeout: 5_000 }).toBe('Ava García');
    const nav = pager(page);
    await expectCurrentPage(nav, 1);
    // Fifty pages at twenty: the cap's; the last one offered is 50.
    await nav.getByRole('button', { name: '50', exact: true }).waitFor();
    await screenshotAround(footer(page), 'search-at-scale-capped-footer');

    await turnPage(page, () => nav.getByRole('button', { name: 'Next page' }).click());
    await footerSays(page, '21–40 of 1,000+');
    await expectCurrentPage(nav, 2);

    // To the cap's last page, then on by the keyboard: "Next page" stays enabled while the server says so.
    await turnPage(page, () => nav.getByRole('button', { name: '50', exact: true }).click());
    await footerSays(page, '981–1,000 of 1,000+');
    const next = nav.getByRole('button', { name: 'Next page' });
    expect(await next.isEnabled()).toBe(true);
    await next.focus();
    await turnPage(page, () => page.keyboard.press('Enter'));
    await footerSays(page, '1,001–1,020 of 1,020+');
    await expectCurrentPage(nav, 51);
    await screenshotAround(footer(page), 'search-at-scale-past-cap');

    // On to the last page: there the count is known, and "Next page" is disabled.
    const lastPage = Math.ceil(GARCIA_MATCHES / PAGE_SIZE);
    for (let p = 52; p <= lastPage; p += 1) {
      await turnPage(page, () => next.click());
      await expectCurrentPage(nav, p);
    }
    const from = (lastPage - 1) * PAGE_SIZE + 1;
    const fmt = (n: number) => n.toLocaleString('en-US');
    await footerSays(page, `${fmt(from)}–${fmt(GARCIA_MATCHES)} of ${fmt(GARCIA_MATCHES)}`);
    expect(await next.isDisabled()).toBe(true);
    await screenshotAround(footer(page), 'search-at-scale-last-page');

    // Back through the pager's own controls.
    await turnPage(page, () => nav.getByRole('button', { name: 'Previous page' }).click());
    await expectCurrentPage(nav, lastPage - 1);
    expect(unexpectedErrors()).toEqual([]);
  });

  test('the start of a word: ‘gar’ finds García, ‘arci’ finds nothing', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await openUsers(page);

    await search(page, 'gar');
    await footerSays(page, '1–20 of 1,000+');
    await expect.poll(() => firstRowName(page), { timeout: 5_000 }).toBe('Ava García');

    await search(page, 'ava GAR');
    await footerSays(page, '1–1 of 1');
    await usersTable(page)
      .getByRole('row')
      .filter({ hasText: `ava.garcia@${domain}` })
      .waitFor();

    // Marcia is there, by the start of her name…
    await search(page, 'marc');
    await footerSays(page, '1–1 of 1');
    await usersTable(page).getByRole('row').filter({ hasText: 'Marcia López' }).waitFor();
    // …but 'arci', inside Marcia and inside every García, starts no word.
    await search(page, 'arci');
    await page.getByText(MSG.noSearchResults, { exact: true }).waitFor();
    await expect
      .poll(() => usersTable(page).getByRole('row').filter({ hasText: domain }).count(), { timeout: 5_000 })
      .toBe(0);
    expect(await pager(page).count()).toBe(0);
    await screenshot(page, 'search-at-scale-arci-empty');
    expect(unexpectedErrors()).toEqual([]);
  });

  test('the Home search says “1,000+ found” and pages on past the cap', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await mainNav(page).getByRole('link', { name: 'Home', exact: true }).click();
    const box = page.getByRole('searchbox', { name: 'Search organizations and users' });
    await box.waitFor();
    expect(await box.getAttribute('placeholder')).toBe(
      'Search organizations by name, users by name or email: start of a word',
    );
    await screenshotAround(box, 'search-at-scale-home-hint');
    await box.fill('garc');
    const users = page.getByRole('region', { name: 'Users', exact: true });
    await users.getByText('1,000+ found', { exact: true }).waitFor();
    const nav = page.getByRole('navigation', { name: 'User results pages' });
    // Twelve a page: the cap's 84 pages, and the next one while there are more.
    await nav.getByRole('button', { name: '84', exact: true }).click();
    await expectCurrentPage(nav, 84);
    await nav.getByRole('button', { name: 'Next page' }).click();
    await expectCurrentPage(nav, 85);
    await users.getByText('1,020+ found', { exact: true }).waitFor();
    await screenshot(page, 'search-at-scale-home-past-cap');
    expect(unexpectedErrors()).toEqual([]);
  });
});
