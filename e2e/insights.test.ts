import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { apiToken } from './support/api';
import { screenshot } from './support/browser';
import { myOrganizationId, subOrganizationIds } from './support/builders';
import { tallScreenshot as picture } from './support/screens';
import { browserSuite, signIn } from './support/suite';
import './support/context';

/*
 * Issue 16, web side, insights: the district's credit use (chart, table, forecast), its low-balance alerts
 * (saved, then turned off again: the demo data is left as it was), the sub-organizations' Days left and the
 * licences screen's seat use.
 */
const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
let riversideId: string;
let northsideId: string;

beforeAll(async () => {
  const token = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  riversideId = await myOrganizationId(baseUrl, token, DEMO_ROOT);
  northsideId = (await subOrganizationIds(baseUrl, token, riversideId))('Northside Elementary');
  expect([riversideId, northsideId]).not.toContain('');
});

async function ownerOn(path: string, organizationId = riversideId): Promise<Page> {
  const { page } = await newPage();
  await signIn(page, OWNER, DEMO_PASSWORD);
  await page.goto(`${baseUrl}/${organizationId}${path}`);
  return page;
}

describe('credit use on general information', () => {
  test('the district shows its credit use per day, the burn rate and the forecast, also as a table', async () => {
    const page = await ownerOn('');
    const section = page.getByRole('region', { name: 'Credit use' });
    await section.getByText(/credits? a day, mean of the last 28 days/).waitFor();
    const forecast = section.getByText(
      /^(At this rate, the [\d,]+ credits? held in Riverside District and below (run out on \w+, \w+ \d+, \d{4}|do not run out in the next year)\.|Nothing consumed in the last 28 days\.)$/,
    );
    await forecast.waitFor();
    // Two charts with accessible names: consumption on its own scale (the demo's teachers consume on most of
    // the 90 days: a bar each), and what was received and handed down, with a legend.
    const chart = section.getByRole('img', { name: 'Consumed per day' });
    await chart.waitFor();
    await expect(chart.locator('.recharts-bar-rectangle').count()).resolves.toBeGreaterThan(20);
    const moves = section.getByRole('img', { name: 'Received and handed down per day' });
    await expect(moves.locator('.recharts-bar-rectangle').count()).resolves.toBeGreaterThan(0);
    for (const series of ['Received', 'Handed down']) {
      await moves.getByText(series, { exact: true }).first().waitFor();
    }
    await page.getByRole('heading', { name: 'Low-balance alerts' }).scrollIntoViewIfNeeded();
    await picture(page, 'insights-credit-use-chart');

    // The same figures as a table, newest day first; the period picker asks for another period.
    await section.getByRole('button', { name: 'Show as table' }).click();
    const table = section.getByRole('table');
    await table.locator('tbody tr').first().waitFor();
    const rows = await table.locator('tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    await section.getByText('30 days', { exact: true }).click();
    await expect
      .poll(async () =>
        (await section.getByRole('table').locator('caption').innerText()).includes('last 30 days'),
      )
      .toBe(true);
    await expect.poll(() => table.locator('tbody tr').count()).toBeLessThanOrEqual(Math.max(rows, 30));
    await picture(page, 'insights-credit-use-table');
    await section.getByRole('button', { name: 'Show as chart' }).click();
    await chart.waitFor();
  });
});

describe('low-balance alerts', () => {
  test('the owner sets two thresholds, a wrong value says why, and they are kept', async () => {
    const page = await ownerOn('');
    const form = page.getByRole('form', { name: 'Low-balance alerts' });
    await form.getByText('No alerts: nobody is emailed').waitFor();
    await expect(form.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);

    await form.getByRole('button', { name: 'Add threshold' }).click();
    await form.getByLabel('Threshold 1: percent').fill('150');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('A percentage is a whole number from 1 to 99.').waitFor();
    await form.getByLabel('Threshold 1: percent').fill('10');

    await form.getByRole('button', { name: 'Add threshold' }).click();
    // As a person would: the section in the middle of the screen, so the kind's list opens inside it.
    await form.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await form.getByLabel('Threshold 2: kind').click();
    await page.getByRole('option', { name: 'Credits', exact: true }).click();
    await form.getByLabel('Threshold 2: credits').fill('500');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Low-balance alerts saved').waitFor();
    await expect(form.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);

    await page.reload();
    await expect.poll(() => form.getByLabel('Threshold 1: percent').inputValue()).toBe('10');
    await expect(form.getByLabel('Threshold 2: credits').inputValue()).resolves.toBe('500');
    await form.getByText(/10 % of the last top-up = [\d,]+ credits?:/).waitFor();
    await form.scrollIntoViewIfNeeded();
    await picture(page, 'insights-alerts-saved');

    // Off again, as the demo data had it.
    await form.getByRole('button', { name: 'Remove threshold 2' }).click();
    await form.getByRole('button', { name: 'Remove threshold 1' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('No alerts: nobody is emailed').waitFor();
    await page.getByText('No alerts for Riverside District.').waitFor();
  });
});

describe('days left and seat use', () => {
  test('the sub-organizations table has a sortable Days left column', async () => {
    const page = await ownerOn('/sub-organizations');
    const table = page.getByRole('table', { name: 'Sub organizations' });
    await table.locator('tbody tr').first().waitFor();
    const header = table.getByRole('columnheader', { name: /Days left/ });
    await header.waitFor();
    const cells = () =>
      table
        .locator('tbody tr')
        .evaluateAll((rows) =>
          rows.map((row) =>
            (row.querySelectorAll('td')[row.querySelectorAll('td').length - 2]?.textContent ?? '').trim(),
          ),
        );
    // Once loaded, each row has a number of days left, or '—' (nothing consumed, or over a year). Other browser
    // tests add schools and move credits before this one may run, so neither the rows nor the figures are fixed;
    // the demo's Hillcrest High, consuming every week, has a number.
    await expect
      .poll(async () => {
        const shown = await cells();
        return shown.length > 0 && shown.every((cell) => /^(—|[\d,]+)$/.test(cell));
      })
      .toBe(true);
    await expect(
      table
        .getByRole('row', { name: /Hillcrest High/ })
        .locator('td')
        .nth(-2)
        .innerText(),
    ).resolves.toMatch(/^[\d,]+$/);
    await header.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('daysLeft');
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    await table.locator('tbody tr').first().waitFor();
    await screenshot(page, 'insights-days-left');
  });

  test("a school's licences screen shows seat use per licence and the idle seats", async () => {
    // Northside holds seats its teachers use (the district's seats are all handed down).
    const page = await ownerOn('/licenses', northsideId);
    const section = page.getByRole('region', { name: 'Seat use', exact: true });
    const card = section.getByRole('region', { name: /^Seat use of / }).first();
    await card.waitFor();
    await card.getByText(/^[\d,]+ of [\d,]+ seats? used today \(\d+ %\)$/).waitFor();
    await card
      .getByRole('img', { name: /Seats used per day of .*, last 90 days/ })
      .or(card.getByText(/^The daily history starts on /))
      .waitFor();
    await card
      .getByText(
        /held by people who have not used the product for 30 days|used the product in the last 30 days/,
      )
      .first()
      .waitFor();
    await section.scrollIntoViewIfNeeded();
    await picture(page, 'insights-seat-use');
  });
});
