import type { LoginResponse, UserSession } from '@allot/domain/auth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { callApi } from './api';
import { launchBrowser, login, openPage, screenshot, type TestPage, waitForSignedIn } from './browser';

/**
 * One browser per test file; every test opens fresh contexts (own localStorage) through `newPage`.
 * A failed test leaves a picture of each of its pages and their console errors behind.
 */
export function browserSuite(baseUrl: string): { newPage: () => Promise<TestPage> } {
  let browser: Browser;
  const opened: TestPage[] = [];
  let current: TestPage[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const { context } of opened) await context.close();
    await browser?.close();
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      for (const [index, { page, consoleErrors }] of current.entries()) {
        const slug = task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
        await screenshot(page, `failed-${slug}-${index}`).catch(() => undefined);
        console.error(`[${task.name}] page ${index} at ${page.url()}; console errors:`, consoleErrors);
      }
    }
    // CONTRACT §1: the built app passes its Content-Security-Policy on every screen a test visits.
    const violations = current.flatMap(({ cspViolations }) => cspViolations);
    // A page left open keeps drawing and fetching while the next tests run: each test's pages end with it.
    for (const { context } of current) await context.close().catch(() => undefined);
    current = [];
    if (violations.length > 0) {
      throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
    }
  });

  return {
    newPage: async () => {
      const testPage = await openPage(browser, baseUrl);
      // A step that has not happened in 15 s will not happen: fail early, with the picture.
      testPage.page.setDefaultTimeout(15_000);
      opened.push(testPage);
      current.push(testPage);
      return testPage;
    },
  };
}

/**
 * Signs in and waits for the first screen the app shows: the picker or a dashboard. The password is checked
 * through the API and the answer kept where the sign-in screen keeps it (localStorage `allot.session`), then
 * the app opens where that screen would go (the one organization, else the picker): the sign-in screen is a
 * page load and a render each test would pay again, and its form is proven where it is the subject
 * (auth.test.ts, and the invitation, reset and two-factor journeys, which go through it). An account the
 * password alone does not let in (two-factor, an unverified address) goes through the form.
 */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  const baseUrl = inject('baseUrl');
  const answer = await callApi<Partial<LoginResponse>>(baseUrl, 'POST', '/auth/login', {
    body: { email, password },
  });
  const { secToken, userId, userEmail, role } = answer.body ?? {};
  if (answer.status !== 200 || !secToken || !userId || !userEmail || !role) {
    await login(page, email, password);
    await waitForSignedIn(page);
  } else {
    const session: UserSession = { signedIn: true, secToken, userId, userEmail, role, permissions: [] };
    const mine = await callApi<{ id: string }[]>(baseUrl, 'GET', '/organization', { token: secToken });
    // The app's own origin without loading the app: a JSON answer of the API.
    await page.goto('/api/health');
    await page.evaluate(
      (value) => window.localStorage.setItem('allot.session', value),
      JSON.stringify(session),
    );
    const only = mine.status === 200 && mine.body.length === 1 ? mine.body[0] : undefined;
    await page.goto(only ? `/${encodeURIComponent(only.id)}` : '/');
  }
  await page
    .getByRole('heading', { name: 'General information', level: 1 })
    .or(page.getByRole('heading', { name: 'Organizations', level: 1 }))
    .waitFor();
}

/** A name no earlier run of the suite used (the e2e server is shared by every test file). */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** An address no other test or earlier run used. */
export function uniqueEmail(prefix: string): string {
  return `${uniqueName(prefix).replace(/\s+/g, '-').toLowerCase()}@example.test`;
}

/** A mail domain no earlier run used, for a test's many addresses (`person1@…`). */
export function uniqueDomain(prefix: string): string {
  return `${uniqueName(prefix).replace(/\s+/g, '-').toLowerCase()}.test`;
}
