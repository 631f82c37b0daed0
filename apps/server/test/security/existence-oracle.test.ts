import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertIntegrationKey } from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/**
 * Issue 30, finding 3 ("account existence"), as the probe tried it from a tenant of its own: invite an address
 * that has an account (Alpha's owner, the system admin) and one that has none, then read everything the tenant
 * can read of both. Every answer reads alike, and none carries the account's id (CONTRACT §3). (Not yet the user
 * search, which finds a new account not set up and not an invited one: decision 005, "No existence oracle".)
 */
let t: TestApp;
let beta: string;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  beta = await sessionFor(t.db, t.world.users.betaOwner.id);
  key = (await insertIntegrationKey(t.db, t.world.orgs.beta)).key;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object, token = beta) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

/** Everything Beta's owner and key can read of a person it just invited, with the ids and the address left out. */
async function whatBetaSees(email: string) {
  const organizationId = t.world.orgs.beta;
  const count = async () =>
    (await call('GET', `/api/organization/${organizationId}`)).json<{ usersCount: number }>().usersCount;
  const before = await count();
  const created = await call('POST', '/api/user/create', {
    organizationId,
    email,
    name: 'Typed Name',
    role: 'user',
  });
  const answer = created.json<{ id: string; email: string }>();
  const listed = (await call('GET', `/api/organization/${organizationId}/users?search=typed`)).json<{
    data: { id: string }[];
  }>();
  const entitlement = await call(
    'GET',
    `/api/integration/entitlement?email=${encodeURIComponent(email)}`,
    undefined,
    key,
  );
  const consumed = await t.app.inject({
    method: 'POST',
    url: '/api/integration/consume',
    headers: { ...bearer(key), 'idempotency-key': `oracle-${email}` },
    payload: { email, credits: 1, reference: 'oracle' },
  });
  const panel = await call('GET', `/api/organization/${organizationId}/users/${answer.id}/entitlement`);
  const edit = await call('GET', `/api/user/${answer.id}/edit-rights`);
  const strip = (body: Record<string, unknown>) => {
    const { id: _id, userId: _userId, email: _email, ...rest } = body;
    return rest;
  };
  return {
    ids: [
      answer.id,
      listed.data.find((p) => p.id === answer.id)?.id,
      entitlement.json().userId,
      panel.json().userId,
    ],
    seen: {
      created: [created.statusCode, strip(answer)],
      listed: listed.data.filter((p) => p.id === answer.id).map((p) => strip(p)),
      usersCount: (await count()) - before,
      entitlement: [entitlement.statusCode, strip(entitlement.json())],
      consumed: [consumed.statusCode, consumed.json()],
      panel: [panel.statusCode, strip(panel.json())],
      edit: [edit.statusCode, edit.json()],
    },
  };
}

describe('an address with an account and one without read alike to another tenant', () => {
  it('invited to Beta: the same answers everywhere, and never the account’s id', async () => {
    const existing = await whatBetaSees(t.world.users.owner.email);
    const admin = await whatBetaSees(t.world.users.systemAdmin.email);
    const fresh = await whatBetaSees('nobody-yet@nowhere.test');
    expect(existing.seen).toEqual(fresh.seen);
    expect(admin.seen).toEqual(fresh.seen);
    expect(fresh.seen.created[0]).toBe(201);
    expect(fresh.seen.usersCount).toBe(1);
    // Each names the invited person by one id, the same everywhere, and it is never the account's.
    for (const { ids } of [existing, admin, fresh]) expect(new Set(ids).size).toBe(1);
    for (const id of [...existing.ids, ...admin.ids]) {
      expect([t.world.users.owner.id, t.world.users.systemAdmin.id]).not.toContain(id);
    }
  });
});
