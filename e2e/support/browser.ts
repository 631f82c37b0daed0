import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const SCREENSHOT_DIR = new URL('../screenshots/', import.meta.url).pathname;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions of this page, in order. */
  consoleErrors: string[];
  /** The console errors left after dropping the expected ones (e.g. a 401 the test provoked). */
  unexpectedErrors: (...expected: RegExp[]) => string[];
  /**
   * Every Content-Security-Policy violation of this page's context (CONTRACT §1): each test fails when one
   * of its pages has any (suite.ts). A test that provokes one on purpose takes it out of this list.
   */
  cspViolations: string[];
}

/** Puts a `securitypolicyviolation` listener into every document of the context, before its scripts run. */
async function recordCspViolations(context: BrowserContext, into: string[]): Promise<void> {
  await context.exposeBinding('__allotCspViolation', (_source, report: string) => {
    into.push(report);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __allotCspViolation: (text: string) => void }).__allotCspViolation;
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        report(
          `${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile || event.documentURI}:${event.lineNumber}`,
        );
      },
      true,
    );
  });
}

/** A fresh context (own localStorage) with a page of 1366x768 that records its console errors. */
export async function openPage(browser: Browser, baseUrl: string): Promise<TestPage> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 768 } });
  const cspViolations: string[] = [];
  await recordCspViolations(context, cspViolations);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
    // Chromium also reports a violation on the console; the event above gives the details.
    if (/Content Security Policy/i.test(message.text()) && !cspViolations.includes(message.text())) {
      cspViolations.push(message.text());
    }
  });
  page.on('pageerror', (error) => consoleErrors.push(`Uncaught: ${error.message}`));
  return {
    context,
    page,
    consoleErrors,
    unexpectedErrors: (...expected) => consoleErrors.filter((text) => !expected.some((re) => re.test(text))),
    cspViolations,
  };
}

/** A resource the browser reports as failed with the given HTTP status (Chromium logs these as errors). */
export function failedResource(status: number): RegExp {
  return new RegExp(`Failed to load resource: the server responded with a status of ${status}\\b`);
}

/** Signs in through the form, as a person would. Does not wait for where the app goes next. */
export async function login(page: Page, email: string, password: string): Promise<void> {
  if (new URL(page.url() === 'about:blank' ? 'http://x/' : page.url()).pathname !== '/login') {
    await page.goto('/login');
  }
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Waits until the app has left the sign-in screen. */
export async function waitForSignedIn(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 20_000 });
}

/**
 * A picture of the whole page, as a window tall enough to hold it shows it; `{ fullPage: false }` for what the
 * window shows (a dialog on a long phone page). The page is not photographed past the window's edge: that
 * leaves the fixed header, footer and a dialog's overlay where the window's edge was, mid-picture, which no
 * person ever sees; the window is made as tall as the page for the picture instead, then given back its size.
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let loading buttons and transitions settle so the picture shows what the person sees.
  await page.locator('button[data-loading]').first().waitFor({ state: 'detached', timeout: 5_000 });
  await page.waitForTimeout(250);
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  const size = page.viewportSize();
  const height = fullPage ? await page.evaluate(() => document.documentElement.scrollHeight) : 0;
  if (!size || height <= size.height) {
    await page.screenshot({ path, fullPage });
    return path;
  }
  await page.setViewportSize({ width: size.width, height });
  try {
    await page.waitForTimeout(250);
    // Whatever still reaches past the taller window (rare: a layout that grows with it) is in the picture too.
    await page.screenshot({ path, fullPage: true });
  } finally {
    await page.setViewportSize(size);
  }
  return path;
}

/** The session the app keeps in localStorage (spec §3). */
export async function readSession(page: Page): Promise<Record<string, unknown> | null> {
  const raw = await page.evaluate(() => window.localStorage.getItem('allot.session'));
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
}

/**
 * Loses the first answer to a request matching `url` on its way back (the server did the work) and lets
 * every later one through. Answers each request's Idempotency-Key, in order, as they come.
 */
export async function loseFirstAnswer(page: Page, url: string): Promise<string[]> {
  const keys: string[] = [];
  await page.route(url, async (route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length === 1) {
      await route.fetch();
      await route.abort('failed');
    } else {
      await route.continue();
    }
  });
  return keys;
}
