import { beforeAll, describe, expect, inject, test } from 'vitest';
import { apiToken, callApi } from './support/api';
import { screenshot } from './support/browser';
import { browserSuite, signIn, uniqueName } from './support/suite';
import './support/context';

/**
 * Issue 33, item 8: "reclaim all" for people. The reclaim call takes one amount from each person it names
 * (CONTRACT §5), so the dialog sends one call per amount held; each is all or nothing, the series is not, and the
 * dialog says which came back when one is refused.
 */
const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

let adminToken: string;
let districtId: string;
const people = [
  { name: 'Rhea Reclaim', credits: 120 },
  { name: 'Ravi Reclaim', credits: 120 },
  { name: 'Rosa Reclaim', credits: 45 },
  { name: 'Remy Reclaim', credits: 0 },
];
const ids = new Map<string, string>();

async function post(path: string, body: unknown) {
  const answer = await callApi<Record<string, unknown>>(baseUrl, 'POST', path, { token: adminToken, body });
  expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

async function balances(): Promise<Record<string, number>> {
  const answer = await callApi<{ data: { name: string; credits: number }[] }>(
    baseUrl,
    'GET',
    `/organization/${districtId}/users?withCredits=true&limit=100`,
    { token: adminToken },
  );
  return Object.fromEntries(answer.body.data.map((u) => [u.name, u.credits]));
}

// A district of its own with four invited teachers holding 120, 120, 45 and nothing (credits may wait on an
// invitation: CONTRACT §6).
beforeAll(async () => {
  adminToken = await apiToken(baseUrl, inject('adminEmail'), inject('adminPassword'));
  const district = await post('/organization/create', {
    name: uniqueName('E2E Reclaim District'),
    type: 'district',
    phoneNumber: '555 010 8000',
    parentOrganizationId: null,
  });
  districtId = String(district.id);
  await post('/credit/allocate/system', {
    organizationId: districtId,
    amount: 1000,
    toPool: 'shared',
    description: 'For the reclaim-all test',
  });
  const tag = uniqueName('r').replace(/\s+/g, '-').toLowerCase();
  for (const person of people) {
    const email = `${person.name.split(' ')[0]?.toLowerCase()}-${tag}@example.test`;
    const created = await post('/user/create', {
      email,
      name: person.name,
      organizationId: districtId,
      role: 'user',
    });
    ids.set(person.name, String(created.id));
    if (person.credits > 0) {
      await post('/credit/assign/users', {
        amount: person.credits,
        userIds: [created.id],
        organizationId: districtId,
        fromOrganizationPoolType: 'shared',
      });
    }
  }
});

describe('reclaim everything each person holds (issue 33, item 8)', () => {
  test('one reclaim per amount held; a refused one is named, and reclaiming again takes the rest', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, inject('adminEmail'), inject('adminPassword'));
    await page.goto(`/${districtId}/users`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    for (const person of people) await page.getByRole('checkbox', { name: `Select ${person.name}` }).check();
    await page.getByRole('button', { name: 'Reclaim credits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reclaim credits' });
    await dialog.getByRole('radio', { name: 'Everything each holds' }).check();
    await dialog
      .getByText('285 credits in all, into the shared pool; 1 user holding nothing left out.')
      .waitFor();
    await dialog.getByText('Remy Reclaim holds nothing: left out').waitFor();
    await dialog.getByText('Sent as 2 reclaims, one for each amount held', { exact: false }).waitFor();
    await dialog.getByText('Afterwards: 1,000 in the shared pool', { exact: false }).waitFor();
    await screenshot(page, 'reclaim-all');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'phone-reclaim-all', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });

    // The reclaim of 45 is refused (as if Rosa had spent some meanwhile): the 120s come back, the dialog says so.
    const sent: number[] = [];
    await page.route('**/api/credit/reclaim/users', async (route) => {
      const body = route.request().postDataJSON() as { amount: number };
      sent.push(body.amount);
      if (body.amount === 45) {
        await route.fulfill({
          status: 422,
          json: { error: 'insufficient_credits', message: 'Rosa Reclaim has only 30 credits.' },
        });
      } else {
        await route.continue();
      }
    });
    await dialog.getByRole('button', { name: 'Reclaim credits' }).click();
    const partly = dialog.getByRole('alert').filter({ hasText: 'Only some credits were reclaimed' });
    await partly.getByText('240 credits came back from Rhea Reclaim, Ravi Reclaim.').waitFor();
    await partly.getByText('Rosa Reclaim has only 30 credits.', { exact: false }).waitFor();
    expect(sent).toEqual([120, 45]);
    // The list was read again: the two who gave everything hold nothing now.
    await dialog.getByText('Rhea Reclaim holds nothing: left out').waitFor();
    await dialog.getByText('45 credits in all, into the shared pool', { exact: false }).waitFor();
    await screenshot(page, 'reclaim-all-partly');
    expect(await balances()).toMatchObject({ 'Rhea Reclaim': 0, 'Ravi Reclaim': 0, 'Rosa Reclaim': 45 });

    await page.unroute('**/api/credit/reclaim/users');
    await dialog.getByRole('button', { name: 'Reclaim credits' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Everything they held: 45 credits from 1 user back to', { exact: false }).waitFor();
    expect(await balances()).toMatchObject({ 'Rhea Reclaim': 0, 'Ravi Reclaim': 0, 'Rosa Reclaim': 0 });
    const pools = await callApi<{ shared: number }>(baseUrl, 'GET', `/organization/${districtId}/credits`, {
      token: adminToken,
    });
    expect(pools.body.shared).toBe(1000);
    expect(unexpectedErrors(/status of 422/)).toEqual([]);
  });
});
