/** Parts of the app's screens that many browser tests find or wait for, found as a person finds them: by role and name. */
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser';

/** The app's main menu. */
export function mainNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main' });
}

/** The footer's links (help, contact, terms, …). */
export function footerNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Footer' });
}

/** Waits for the screen's heading (level 1) of this name. */
export async function waitForHeading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

/** Goes to a screen through the main menu and waits for its heading (the link's name unless told). */
export async function openScreen(page: Page, link: string, heading = link): Promise<void> {
  await mainNav(page).getByRole('link', { name: link, exact: true }).click();
  await waitForHeading(page, heading);
}

/** The dialog of this name. */
export function dialog(page: Page, name: string | RegExp): Locator {
  return page.getByRole('dialog', { name });
}

/** The row of the Sub organizations table that links to the organization of this name. */
export function subOrganizationRow(page: Page, name: string): Locator {
  return page
    .getByRole('table', { name: 'Sub organizations' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** The rows of the table of this name, once it shows its first row and has stopped loading. */
export async function loadedRows(page: Page, table: string): Promise<Locator> {
  const rows = page.getByRole('table', { name: table }).locator('tbody tr');
  await rows.first().waitFor();
  await page.locator('.mantine-datatable-loader[data-active]').waitFor({ state: 'detached' });
  return rows;
}

/** How wide the page is: wider than the window, the page itself would scroll sideways. */
export function pageScrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** The suite's screenshot, from the top of the page (scrolled, the fixed header would be drawn mid-picture). */
export async function screenshotFromTop(page: Page, name: string): Promise<string> {
  await page.evaluate(() => window.scrollTo(0, 0));
  return screenshot(page, name);
}

/**
 * `screenshot` of a page taller than the window: a full-page capture would draw the fixed header and footer
 * where the window was, over the content. So the window grows to the page's height for the picture (the
 * width, which decides the layout, stays 1366) and goes back to 1366×768 after.
 */
export async function tallScreenshot(page: Page, name: string): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > 768) await page.setViewportSize({ width: 1366, height });
  try {
    await screenshot(page, name);
  } finally {
    if (height > 768) await page.setViewportSize({ width: 1366, height: 768 });
  }
}
