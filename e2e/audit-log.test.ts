import { readFileSync } from 'node:fs';
import { AUDIT_ACTION_LABEL, AUDIT_CSV_HEADER } from '@allot/domain/audit';
import { CREDIT_LOG_CSV_HEADER } from '@allot/domain/credits';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { apiToken, callApi } from './support/api';
import { screenshot } from './support/browser';
import { myOrganizationId, subOrganizationIds } from './support/builders';
import { browserSuite, signIn } from './support/suite';
import './support/context';

/*
 * Issue 16, web side, the audit log: an admin of the district changes a teacher's role (and back) through the
 * API; the owner filters the log to that admin's role changes (the filters kept in the URL), and the CSV export
 * holds exactly the rows the table shows. The credit log's date range narrows the list.
 *
 * Demo data touched: Omar Haddad is made an admin of Northside Elementary and a teacher again.
 */
const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
const ADMIN = { email: 'admin@riverside.test', name: 'Adam Reyes' };
const OMAR = 'teacher2@northside.test';
let riversideId: string;
let northsideId: string;
let adminToken: string;

beforeAll(async () => {
  const ownerToken = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  adminToken = await apiToken(baseUrl, ADMIN.email, DEMO_PASSWORD);
  riversideId = await myOrganizationId(baseUrl, ownerToken, DEMO_ROOT);
  northsideId = (await subOrganizationIds(baseUrl, ownerToken, riversideId))('Northside Elementary');
  expect([riversideId, northsideId]).not.toContain('');
});

async function ownerOn(path: string, organizationId = riversideId): Promise<Page> {
  const { page } = await newPage();
  await signIn(page, OWNER, DEMO_PASSWORD);
  await page.goto(`${baseUrl}/${organizationId}${path}`);
  return page;
}

/** The table's rows as cells' text. */
function tableRows(page: Page, name: string): Promise<string[][]> {
  return page
    .getByRole('table', { name })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())),
    );
}

const utcDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('audit log', () => {
  test("the owner filters to one admin's role changes, and the export holds exactly those rows", async () => {
    // The admin changes a teacher's role and back.
    const members = await callApi<{ data: { id: string; email: string }[] }>(
      baseUrl,
      'GET',
      `/organization/${northsideId}/users?search=${encodeURIComponent('teacher2')}`,
      { token: adminToken },
    );
    const omarId = members.body.data.find((m) => m.email === OMAR)?.id ?? '';
    expect(omarId).not.toBe('');
    for (const role of ['organization_admin', 'user']) {
      const answer = await callApi(baseUrl, 'POST', `/user/${omarId}/update/role`, {
        token: adminToken,
        body: { role, organizationId: northsideId },
      });
      expect(answer.status).toBe(200);
    }

    const page = await ownerOn('');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Audit log' }).locator('tbody tr').first().waitFor();

    const filters = page.getByRole('region', { name: 'Filters' });
    // The person is found by the start of their email too; each option shows the email under the name, and
    // the field the name alone.
    const by = filters.getByLabel('By', { exact: true });
    await by.fill('admin@riverside');
    await page
      .getByRole('option', { name: /^Adam Reyes/ })
      .getByText(ADMIN.email)
      .waitFor();
    await screenshot(page, 'audit-log-by-email');
    await by.fill('Adam');
    await page.getByRole('option', { name: /^Adam Reyes/ }).click();
    await expect.poll(() => by.inputValue()).toBe(ADMIN.name);
    await filters.getByLabel('Action', { exact: true }).fill('Role');
    await page.getByRole('option', { name: AUDIT_ACTION_LABEL.member_role_changed }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).searchParams.get('action')).toBe('member_role_changed');
    expect(new URL(page.url()).searchParams.get('actor')).toMatch(/^[0-9a-f-]{36}$/);

    const expectFiltered = async () => {
      await expect
        .poll(async () => {
          const rows = await tableRows(page, 'Audit log');
          return rows.length >= 2 && rows.every((r) => r[1] === 'Role changed' && r[3] === ADMIN.name);
        })
        .toBe(true);
    };
    await expectFiltered();
    let rows: string[][] = [];
    await expect
      .poll(async () => {
        rows = await tableRows(page, 'Audit log');
        return rows.length >= 2 && rows.every((r) => r.length === 6);
      })
      .toBe(true);
    // Newest first: back to a teacher, after being made an admin.
    expect(rows[0]?.[4]).toContain('Omar Haddad');
    // The member's address is a line of its own under the name, not the label's "Name <email>" squeezed.
    const target = page
      .getByRole('table', { name: 'Audit log' })
      .getByRole('row')
      .nth(1)
      .getByRole('cell')
      .nth(4);
    await expect
      .poll(() => target.locator('p').allTextContents())
      .toEqual(['Omar Haddad', 'teacher2@northside.test']);
    expect(rows[0]?.[5]).toMatch(/role: (Admin|Owner) → Teacher/);
    expect(rows[1]?.[5]).toMatch(/role: Teacher → (Admin|Owner)/);
    await page.getByText(/^All \d+ changes? shown$/).waitFor();
    await screenshot(page, 'audit-log-filtered');

    // The filters are the URL's: a reload shows the same rows.
    await page.reload();
    await expectFiltered();

    // Export CSV: a header row, then exactly the rows of the table, in its order.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const text = readFileSync(await file.path(), 'utf8').replace(/^\uFEFF/, '');
    const parsed = Papa.parse<string[]>(text.trimEnd(), { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual([...AUDIT_CSV_HEADER]);
    const csvRows = parsed.slice(1);
    const shown = await tableRows(page, 'Audit log');
    expect(csvRows.length).toBe(shown.length);
    // The CSV keeps a member's label whole ("Name <email>"), which the table shows on two lines.
    const shownTargets = await page
      .getByRole('table', { name: 'Audit log' })
      .locator('tbody tr td:nth-child(5)')
      .evaluateAll((cells) =>
        cells.map((cell) => {
          const [name, email] = [...cell.querySelectorAll('p')].map((p) => p.textContent ?? '');
          return email ? `${name} <${email}>` : (name ?? '');
        }),
      );
    const col = (name: (typeof AUDIT_CSV_HEADER)[number]) => AUDIT_CSV_HEADER.indexOf(name);
    csvRows.forEach((cells, i) => {
      expect(cells[col('Actor')]).toBe(ADMIN.name);
      expect(cells[col('Actor email')]).toBe(ADMIN.email);
      expect([AUDIT_ACTION_LABEL.member_role_changed, 'member_role_changed']).toContain(cells[col('Action')]);
      expect(cells[col('Organization')]).toBe(shown[i]?.[2]);
      expect(cells[col('Target')]).toBe(shownTargets[i]);
    });

    // Nothing matches a day to come: the empty state says so.
    await page.getByLabel('From', { exact: true }).fill(utcDay(2));
    await page.getByText('No changes match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
  });
  test('the organization filter finds an organization deeper than the sub-organizations, by name', async () => {
    // Northside Annex is under Northside Elementary: not among Riverside District's sub-organizations. Found
    // by the search, it is named with where it sits (other browser tests may have made entries name it too).
    const page = await ownerOn('/audit-log');
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const picker = page.getByRole('combobox', { name: 'Organization' });
    await picker.click();
    await picker.fill('annex');
    const annex = page.getByRole('option', { name: 'Northside Annex (Northside Elementary)', exact: true });
    await annex.waitFor();
    await screenshot(page, 'audit-log-organization-search');
    await annex.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('org')).toMatch(/^[0-9a-f-]{36}$/);
    const annexId = new URL(page.url()).searchParams.get('org');
    // Every row shown is the annex's, and the choice survives a reload (the name read by id).
    await expect
      .poll(async () => {
        const rows = await tableRows(page, 'Audit log').catch(() => []);
        const empty = await page.getByText('No changes match these filters').count();
        return empty > 0 || (rows.length > 0 && rows.every((r) => r[2] === 'Northside Annex'));
      })
      .toBe(true);
    await page.reload();
    await expect.poll(() => picker.inputValue()).toBe('Northside Annex');
    expect(new URL(page.url()).searchParams.get('org')).toBe(annexId);
  });
});

describe('credit log dates', () => {
  test('the date range narrows the credit log, and its export downloads', async () => {
    // Northside's log: its teachers consume on most days of the demo's history.
    const page = await ownerOn('/credit-log', northsideId);
    const table = page.getByRole('table', { name: 'Credit log' });
    await table.locator('tbody tr').first().waitFor();
    const days = () =>
      table
        .locator('tbody tr time')
        .evaluateAll((times) => times.map((t) => (t.getAttribute('datetime') ?? '').slice(0, 10)));
    const from = utcDay(-10);
    const to = utcDay(-11);
    // From ten days ago: only moves of those days; then up to the day before: only older ones.
    await page.getByLabel('From', { exact: true }).fill(from);
    await expect
      .poll(async () => {
        const shown = await days();
        return shown.length > 0 && shown.every((d) => d >= from);
      })
      .toBe(true);
    await page.getByLabel('From', { exact: true }).fill('');
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe(null);
    await page.getByLabel('To', { exact: true }).fill(to);
    await expect.poll(() => new URL(page.url()).searchParams.get('to')).toBe(to);
    await expect
      .poll(async () => {
        const shown = await days();
        return shown.length > 0 && shown.every((d) => d <= to);
      })
      .toBe(true);
    await screenshot(page, 'credit-log-dates');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    // The whole filtered log, every page: at least the rows shown, each of a day up to `to`.
    const csv = Papa.parse<string[]>(readFileSync(await file.path(), 'utf8').trim()).data;
    expect(csv[0]).toEqual([...CREDIT_LOG_CSV_HEADER]);
    const shown = await days();
    expect(csv.length - 1).toBeGreaterThanOrEqual(shown.length);
    for (const row of csv.slice(1)) expect((row[0] ?? '').slice(0, 10) <= to).toBe(true);

    await page.getByLabel('From', { exact: true }).fill(utcDay(2));
    await page.getByLabel('To', { exact: true }).fill(utcDay(3));
    await page.getByText('No credit moves on these days').waitFor();
  });
});
