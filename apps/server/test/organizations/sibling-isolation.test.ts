import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

/**
 * CONTRACT §2: an organization outside the caller's subtrees is 404, never 403. Every call of the API that
 * names an organization, taken from the OpenAPI document so that a new one is covered when it appears.
 */
let t: TestApp;
let schoolAdmin = '';
/** A person invited to the school admin's own school, for the calls that also name a member ({userId}). */
let invited = '';
beforeAll(async () => {
  t = await createTestApp();
  schoolAdmin = await t.login(t.world.users.schoolAdmin.email, PASSWORD);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/user/create',
    headers: bearer(schoolAdmin),
    payload: {
      email: 'invited@school-a.test',
      name: 'Ivy Invited',
      organizationId: t.world.orgs.schoolA,
      role: 'user',
    },
  });
  if (created.statusCode !== 201) throw new Error(created.body);
  invited = created.json<{ id: string }>().id;
});
afterAll(() => t.close());

const orgBody = { name: 'Renamed', type: 'school', phoneNumber: '+1 555 000 2222' };
/** A valid body for each call that takes one, naming the organization `id`. */
const BODIES: Record<string, (id: string) => object> = {
  'POST /api/organization/{id}/update': () => orgBody,
  'POST /api/organization/create': (id) => ({ ...orgBody, parentOrganizationId: id }),
  'POST /api/organization/{id}/integration-keys': () => ({ name: 'Classroom' }),
  'POST /api/organization/{id}/integration-settings': () => ({ dailyConsumptionLimit: 100 }),
  'PUT /api/organization/{id}/credit-alerts': () => ({ thresholds: [{ kind: 'credits', value: 100 }] }),
  'POST /api/organization/{id}/security': () => ({ requireMfa: false }),
  'POST /api/organization/{id}/requests': () => ({ kind: 'credits', amount: 1 }),
};

async function organizationCalls() {
  const docs = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Record<string, unknown>>;
  }>();
  const calls: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string }[] = [];
  for (const [path, methods] of Object.entries(docs.paths)) {
    for (const method of Object.keys(methods)) {
      const call = { method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE', path };
      if (path.includes('{id}') && path.startsWith('/api/organization/')) calls.push(call);
      else if (BODIES[`${call.method} ${path}`]) calls.push(call);
    }
  }
  return calls;
}

const send = (call: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string }, id: string) =>
  t.app.inject({
    method: call.method,
    url: call.path
      .replace('{id}', id)
      .replace('{userId}', invited)
      .replace('{keyId}', '00000000-0000-4000-8000-000000000000'),
    headers: bearer(schoolAdmin),
    ...(call.method === 'POST' || call.method === 'PUT'
      ? { payload: (BODIES[`${call.method} ${call.path}`] ?? (() => ({})))(id) }
      : {}),
  });

describe('a school admin and its sibling school', () => {
  it('gets 404 for the sibling school on every call that names an organization', async () => {
    const calls = await organizationCalls();
    expect(calls.length).toBeGreaterThanOrEqual(8);
    for (const call of calls) {
      const response = await send(call, t.world.orgs.schoolB);
      expect({ call: `${call.method} ${call.path}`, status: response.statusCode }).toEqual({
        call: `${call.method} ${call.path}`,
        status: 404,
      });
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
  });

  it('reaches its own school through the same calls (except deleting it and its integration, the owner’s)', async () => {
    for (const call of await organizationCalls()) {
      const response = await send(call, t.world.orgs.schoolA);
      // `delete_org` and `manage_org_integration` are an owner's permissions, not an admin's, and so is requiring
      // two-factor sign-in (CONTRACT §3): 403.
      const ownersOnly =
        call.path.endsWith('/delete') ||
        call.path.endsWith('/security') ||
        /\/integration-(keys|settings)/.test(call.path);
      const creates =
        call.path.endsWith('/create') || (call.method === 'POST' && call.path.endsWith('/requests'));
      const expected = ownersOnly ? 403 : creates ? 201 : 200;
      expect({ call: `${call.method} ${call.path}`, status: response.statusCode }).toEqual({
        call: `${call.method} ${call.path}`,
        status: expected,
      });
    }
  });
});
