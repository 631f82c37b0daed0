import { bearer, type TestApp } from './test-app';
import type { World } from './world';
import { PASSWORD } from './world';

type Who = keyof World['users'];

/** Signs in the given people of the test world once and calls the API as any of them. */
export async function signedInCalls(t: TestApp, people: readonly Who[]) {
  const tokens = new Map<Who, string>();
  for (const who of people) tokens.set(who, await t.login(t.world.users[who].email, PASSWORD));
  return callsWithTokens(t, tokens);
}

/** Calls the API as any of the people whose session tokens are given. */
export function callsWithTokens<Name extends string>(t: TestApp, tokens: ReadonlyMap<Name, string>) {
  const headers = (who: Name) => bearer(tokens.get(who) ?? 'not-signed-in');
  return {
    post: (who: Name, url: string, payload: object, extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, headers: { ...headers(who), ...extra }, payload }),
    get: (who: Name, url: string) => t.app.inject({ method: 'GET', url, headers: headers(who) }),
  };
}
