import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rememberSessionEnd, returnAfterSignIn, returnPath, sessionEnd } from './session-end';

/** The tab's sessionStorage, as the browser keeps it (the web tests run in Node). */
beforeEach(() => {
  const kept = new Map<string, string>();
  (globalThis as { window?: unknown }).window = {
    sessionStorage: {
      getItem: (key: string) => kept.get(key) ?? null,
      setItem: (key: string, value: string) => kept.set(key, value),
      removeItem: (key: string) => kept.delete(key),
    },
  };
});
afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe('the page to go back to after signing in', () => {
  it('is a page of this app, never another site, the sign-in screen or Home', () => {
    expect(returnPath('/0b7c/users?q=ann')).toBe('/0b7c/users?q=ann');
    for (const from of [
      'https://evil.test/',
      '//evil.test/x',
      '/\\evil.test',
      '/login',
      '/login?x=1',
      '/',
      '/?q=a',
      '',
    ])
      expect(returnPath(from)).toBeNull();
  });

  it('is where the session ended, for the same person only, and only once', () => {
    rememberSessionEnd({
      from: '/org/licenses',
      userId: 'u1',
      email: 'ann@school.test',
      ended: true,
      unsavedChange: false,
    });
    expect(returnAfterSignIn('u2')).toBeNull();
    rememberSessionEnd({
      from: '/org/licenses',
      userId: 'u1',
      email: 'ann@school.test',
      ended: true,
      unsavedChange: false,
    });
    expect(returnAfterSignIn('u1')).toBe('/org/licenses');
    expect(returnAfterSignIn('u1')).toBeNull();
  });

  it('keeps a refused change when a read of the same page is refused after it', () => {
    rememberSessionEnd({
      from: '/org/users',
      userId: 'u1',
      email: 'ann@school.test',
      ended: true,
      unsavedChange: true,
    });
    rememberSessionEnd({ from: '/org/users', userId: null, email: null, ended: true, unsavedChange: false });
    expect(sessionEnd()).toEqual({
      from: '/org/users',
      userId: 'u1',
      email: 'ann@school.test',
      ended: true,
      unsavedChange: true,
    });
  });
});
