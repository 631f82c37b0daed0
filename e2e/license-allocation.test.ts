import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { apiToken, callApi } from './support/api';
import { failedResource, screenshot } from './support/browser';
import { type CreatedUser, createMember, createOrganization, setUpAccount } from './support/builders';
import { dialog, openScreen, subOrganizationRow } from './support/screens';
import { browserSuite, signIn, uniqueEmail, uniqueName } from './support/suite';
import './support/context';

const baseUrl = inject('baseUrl');
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');
const { newPage } = browserSuite(baseUrl);

const PASSWORD = 'e2e-licence-owner-2026';
const NOT_ENOUGH = 'Not enough available TLE Teacher licenses.';
const ONLY_NUMBERS = 'Field must contain only numbers';
const NOTHING_TO_MOVE = 'Enter seats above 0 for at least one licence.';
const PHONE = '+1 555 010 5000';

interface License {
  id: string;
  licenseType: string;
  maxUsers: number;
  usedSeats: number;
}

// One story, told by the tests of this file in order: a fresh district holding 30 TLE Teacher seats, its
// owner, a school with an admin and a teacher, and a second sub-organization; no other file's data is touched.
const district = uniqueName('E2E Licence District');
const school = uniqueName('E2E Licence School');
const other = uniqueName('E2E Licence Other');
const ids: Record<string, string> = {};
let ownerEmail: string;
let adminToken: string;
let ownerToken: string;
let schoolAdmin: CreatedUser;
let teacher: CreatedUser;
let smtp: SmtpCatcher;

async function tleTeacher(organizationId: string): Promise<License | undefined> {
  const answer = await callApi<{ licenses: License[] }>(
    baseUrl,
    'GET',
    `/organization/${organizationId}?licenses=true`,
    { token: adminToken },
  );
  expect(answer.status).toBe(200);
  return answer.body.licenses.find((l) => l.licenseType === 'tle_teacher');
}

beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  adminToken = await apiToken(baseUrl, adminEmail, adminPassword);
  ownerEmail = uniqueEmail('lena-licence-owner');
  ids[district] = await createOrganization(baseUrl, adminToken, {
    name: district,
    type: 'district',
    phoneNumber: PHONE,
    parentOrganizationId: null,
    adminName: 'Lena Lindqvist',
    adminEmail: ownerEmail,
  });
  await setUpAccount(baseUrl, smtp, ownerEmail, PASSWORD);
  ownerToken = await apiToken(baseUrl, ownerEmail, PASSWORD);
  const below = (name: string, type: string) =>
    createOrganization(baseUrl, ownerToken, {
      name,
      type,
      phoneNumber: PHONE,
      parentOrganizationId: ids[district] as string,
    });
  ids[school] = await below(school, 'school');
  ids[other] = await below(other, 'other');
  // Members of the school with an account set up (no licence yet: the school holds none when it joins).
  const member = (name: string, role: 'user' | 'organization_admin') =>
    createMember(baseUrl, smtp, ownerToken, {
      email: uniqueEmail(name),
      name,
      organizationId: ids[school] as string,
      role,
      password: PASSWORD,
    });
  schoolAdmin = await member('Sam School-Admin', 'organization_admin');
  teacher = await member('Tess Teacher', 'user');
  const expireAt = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
  const created = await callApi(baseUrl, 'POST', '/license/create', {
    token: adminToken,
    body: { organizationId: ids[district], licenseType: 'tle_teacher', expireAt, maxUsers: 30 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
});

afterAll(async () => {
  await smtp?.stop();
  // Leaves first, then the district: their seats go back up the tree, and end with the district.
  for (const name of [school, other, district]) {
    if (ids[name])
      await callApi(baseUrl, 'DELETE', `/organization/${ids[name]}/delete`, { token: adminToken });
  }
});

/** The TLE Teacher row of a licence dialog: its figures in words and its seats field. */
function tleRow(scope: Locator): Locator {
  return scope.getByRole('group', { name: 'TLE Teacher' });
}

/** "used / max" of TLE Teacher in the seats summary above the users table. */
async function seatsUsed(page: Page): Promise<string> {
  const text = (await page.getByRole('group', { name: 'TLE Teacher seats' }).textContent()) ?? '';
  return /(\d+) \/ (\d+)/.exec(text)?.[0] ?? text;
}

describe('licences for sub-organizations', () => {
  test('the owner allocates seats to the school; an over-allocation is refused in the spec’s words', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await page.getByRole('banner').getByText(district).waitFor();
    await openScreen(page, 'Sub organizations');
    await subOrganizationRow(page, school).waitFor();

    // Nothing selected: the buttons are there, greyed out, reached by the keyboard, and say why.
    const allocateButton = page.getByRole('button', { name: 'Allocate licences' });
    const reclaimButton = page.getByRole('button', { name: 'Reclaim licences' });
    await expect(allocateButton.getAttribute('aria-disabled')).resolves.toBe('true');
    await allocateButton.focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => reclaimButton.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('tooltip').getByText('Select the sub-organizations first').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await screenshot(page, 'licences-bulk-actions-nothing-selected');

    await page.getByRole('checkbox', { name: `Select ${school}` }).check();
    await expect(allocateButton.getAttribute('aria-disabled')).resolves.toBe('false');
    await allocateButton.click();
    const allocate = dialog(page, 'Allocate licences');
    await tleRow(allocate).getByText('30 free · 0 in use of 30').waitFor();
    const seats = allocate.getByRole('textbox', { name: 'TLE Teacher: seats to allocate' });
    const send = allocate.getByRole('button', { name: 'Allocate licences' });

    // Validation in the spec's words, before anything is sent.
    await seats.fill('ten');
    await send.click();
    await allocate.getByText(ONLY_NUMBERS, { exact: true }).waitFor();
    await seats.fill('0');
    await allocate.getByText(NOTHING_TO_MOVE, { exact: true }).waitFor();
    await screenshot(page, 'licences-allocate-validation');

    await seats.fill('10');
    const summary = allocate.getByRole('region', { name: 'Summary' });
    await summary.getByText('TLE Teacher: 1 organization × 10 = 10 seats').waitFor();
    await summary.getByText(`Left free in ${district}: 20.`).waitFor();
    await screenshot(page, 'licences-allocate-dialog');
    await send.click();
    await allocate.waitFor({ state: 'detached' });
    await page.getByText('Licences allocated', { exact: true }).waitFor();
    await page.getByText(`10 TLE Teacher seats went to ${school}.`).waitFor();
    await screenshot(page, 'licences-allocated');
    expect((await tleTeacher(ids[school] as string))?.maxUsers).toBe(10);
    expect((await tleTeacher(ids[district] as string))?.maxUsers).toBe(20);

    // Two organizations × 15 = 30 seats, with 20 free: the dialog says so, and the server refuses.
    await page.getByRole('checkbox', { name: `Select ${other}` }).check();
    await allocateButton.click();
    const over = dialog(page, 'Allocate licences');
    await tleRow(over).getByText('20 free · 0 in use of 20').waitFor();
    await over.getByRole('textbox', { name: 'TLE Teacher: seats for each' }).fill('15');
    const overSummary = over.getByRole('region', { name: 'Summary' });
    await overSummary.getByText('TLE Teacher: 2 organizations × 15 = 30 seats').waitFor();
    await overSummary.getByText(`${NOT_ENOUGH} ${district} has 20 free seats.`).waitFor();
    await screenshot(page, 'licences-allocate-over-free-seats');
    await over.getByRole('button', { name: 'Allocate licences' }).click();
    const refusal = over.getByRole('alert');
    await refusal.getByText('Unsuccessful', { exact: true }).waitFor();
    await refusal.getByText('Licenses could not be sent', { exact: true }).waitFor();
    await refusal.getByText(NOT_ENOUGH).waitFor();
    await screenshot(page, 'licences-allocate-unsuccessful');
    await over.getByRole('button', { name: 'Cancel' }).click();
    await over.waitFor({ state: 'detached' });
    expect((await tleTeacher(ids[district] as string))?.maxUsers).toBe(20);
    expect(await tleTeacher(ids[other] as string)).toBeUndefined();
    expect(unexpectedErrors(failedResource(422))).toEqual([]);
  });

  test('the school’s admin gives one of its seats to a teacher there: the seats in use go up', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, schoolAdmin.email, PASSWORD);
    await page.getByRole('banner').getByText(school).waitFor();
    await openScreen(page, 'Users');
    const row = page
      .getByRole('table', { name: 'Users' })
      .getByRole('row')
      .filter({ hasText: teacher.email });
    await row.waitFor();
    await expect.poll(() => seatsUsed(page)).toBe('0 / 10');

    await page.getByRole('checkbox', { name: `Select ${teacher.name}` }).check();
    await page.getByRole('button', { name: 'Change licence' }).click();
    const change = dialog(page, 'Change licence');
    await change.getByRole('combobox', { name: 'Licence' }).click();
    await page.getByRole('option', { name: 'TLE Teacher · 10 of 10 seats free' }).click();
    await screenshot(page, 'licences-school-admin-change-licence');
    await change.getByRole('button', { name: 'Change licence' }).click();
    await change.waitFor({ state: 'detached' });
    await row.getByText('TLE Teacher', { exact: true }).waitFor();
    await expect.poll(() => seatsUsed(page)).toBe('1 / 10');
    await screenshot(page, 'licences-school-seat-in-use');
    expect((await tleTeacher(ids[school] as string))?.usedSeats).toBe(1);
    expect(unexpectedErrors()).toEqual([]);
  });

  test('the owner reclaims the school’s free seats, never the one in use', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await openScreen(page, 'Sub organizations');
    await page.getByRole('checkbox', { name: `Select ${school}` }).check();
    await page.getByRole('checkbox', { name: `Select ${other}` }).check();

    // The other sub-organization holds no TLE Teacher licence: the dialog names it before sending.
    await page.getByRole('button', { name: 'Reclaim licences' }).click();
    const both = dialog(page, 'Reclaim licences');
    await tleRow(both).getByText(`${other} holds no TLE Teacher licence`).waitFor();
    await both.getByText('TLE Teacher 9 free of 10').waitFor();
    await both
      .getByRole('listitem')
      .filter({ hasText: other })
      .getByText('· no TLE Teacher licence')
      .waitFor();
    await both.getByRole('textbox', { name: 'TLE Teacher: seats from each' }).fill('1');
    await both
      .getByRole('region', { name: 'Summary' })
      .getByText(`Source TLE Teacher missing: ${other} holds no TLE Teacher licence.`)
      .waitFor();
    await screenshot(page, 'licences-reclaim-source-missing');
    await both.getByRole('button', { name: 'Cancel' }).click();
    await both.waitFor({ state: 'detached' });
    await page.getByRole('checkbox', { name: `Select ${other}` }).uncheck();

    await page.getByRole('button', { name: 'Reclaim licences' }).click();
    const reclaim = dialog(page, 'Reclaim licences');
    await tleRow(reclaim).getByText(`9 free in ${school} · 1 in use`).waitFor();
    const seats = reclaim.getByRole('textbox', { name: 'TLE Teacher: seats to reclaim' });
    const send = reclaim.getByRole('button', { name: 'Reclaim licences' });
    const summary = reclaim.getByRole('region', { name: 'Summary' });

    // All ten: one is in use, so the server refuses, in the spec's words.
    await seats.fill('10');
    await summary
      .getByText(`${NOT_ENOUGH} ${school} has 9 free seats; seats in use are never reclaimed.`)
      .waitFor();
    await send.click();
    const refusal = reclaim.getByRole('alert');
    await refusal.getByText('Unsuccessful', { exact: true }).waitFor();
    await refusal.getByText('Licenses could not be reclaimed', { exact: true }).waitFor();
    await refusal.getByText(NOT_ENOUGH).waitFor();
    await screenshot(page, 'licences-reclaim-unsuccessful');
    expect((await tleTeacher(ids[school] as string))?.maxUsers).toBe(10);

    // The nine free ones come back. The refusal was about what was sent: it goes once the seats change.
    await seats.fill('9');
    await refusal.waitFor({ state: 'detached' });
    await summary.getByText(`TLE Teacher: 1 organization × 9 = 9 seats back to ${district}`).waitFor();
    await summary.getByText(`Afterwards ${district} holds 29 TLE Teacher seats.`).waitFor();
    await screenshot(page, 'licences-reclaim-dialog');
    await send.click();
    await reclaim.waitFor({ state: 'detached' });
    await page.getByText('Licences reclaimed', { exact: true }).waitFor();
    await page.getByText(`9 TLE Teacher seats came back from ${school} to ${district}.`).waitFor();
    expect(await tleTeacher(ids[school] as string)).toMatchObject({ maxUsers: 1, usedSeats: 1 });
    expect((await tleTeacher(ids[district] as string))?.maxUsers).toBe(29);

    // Opened again: the figures are the new ones.
    await page.getByRole('button', { name: 'Reclaim licences' }).click();
    const again = dialog(page, 'Reclaim licences');
    await tleRow(again).getByText(`0 free in ${school} · 1 in use`).waitFor();
    await screenshot(page, 'licences-reclaim-nothing-free');
    await again.getByRole('button', { name: 'Cancel' }).click();
    await again.waitFor({ state: 'detached' });

    // While the allocation dialog is open, another allocation takes 5 of the district's free seats: the
    // server refuses, and the dialog reads the seats again, so it shows (and checks) what is left.
    await page.getByRole('button', { name: 'Allocate licences' }).click();
    const stale = dialog(page, 'Allocate licences');
    await tleRow(stale).getByText('29 free · 0 in use of 29').waitFor();
    await stale.getByRole('textbox', { name: 'TLE Teacher: seats to allocate' }).fill('29');
    await stale.getByRole('region', { name: 'Summary' }).getByText(`Left free in ${district}: 0.`).waitFor();
    const meanwhile = await callApi(baseUrl, 'POST', '/license/assign/organizations', {
      token: ownerToken,
      body: {
        sourceOrganizationId: ids[district],
        targetOrganizationIds: [ids[other]],
        licenses: [{ type: 'tle_teacher', amount: 5 }],
      },
    });
    expect(meanwhile.status, JSON.stringify(meanwhile.body)).toBe(200);
    await stale.getByRole('button', { name: 'Allocate licences' }).click();
    await stale.getByRole('alert').getByText(NOT_ENOUGH).waitFor();
    await tleRow(stale).getByText('24 free · 0 in use of 24').waitFor();
    await stale
      .getByRole('region', { name: 'Summary' })
      .getByText(`${NOT_ENOUGH} ${district} has 24 free seats.`)
      .waitFor();
    await screenshot(page, 'licences-allocate-stale');
    await stale.getByRole('button', { name: 'Cancel' }).click();
    expect(unexpectedErrors(failedResource(422))).toEqual([]);
  });
});
