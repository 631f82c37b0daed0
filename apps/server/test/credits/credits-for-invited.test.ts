import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCalls } from '../support/calls';
import { codeIn, lastMailTo } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * CONTRACT §6: credits may be allocated to a pending (invited) member; they stay on that membership until it is
 * accepted. The users list names an invitation by its own id, and the moves take that id.
 */
let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['owner', 'schoolAdmin']);
  // The school's shared pool holds credits to hand out.
  const minted = await api.post('owner', '/api/credit/assign/organizations', {
    amount: 100,
    sourceOrganizationId: t.world.orgs.alpha,
    fromOrganizationPoolType: 'shared',
    targetOrganizationIds: [t.world.orgs.schoolA],
    toOrganizationPoolType: 'shared',
  });
  expect(minted.statusCode, minted.body).toBe(200);
});
afterAll(() => t.close());

async function listed(organizationId: string, id: string) {
  const response = await api.get(
    'schoolAdmin',
    `/api/organization/${organizationId}/users?withCredits=true&limit=100`,
  );
  return response
    .json<{ data: { id: string; status: string; credits: number }[] }>()
    .data.find((u) => u.id === id);
}

describe('credits for a pending member', () => {
  it('go to the invitation, wait on it, and are the member’s once it is accepted', async () => {
    const { schoolA } = t.world.orgs;
    // An account that exists is invited: a pending row named by the invitation's id.
    const { email } = t.world.users.betaOwner;
    const invited = await api.post('schoolAdmin', '/api/user/create', {
      email,
      name: 'Bo Invited',
      organizationId: schoolA,
      role: 'user',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const person = invited.json<{ id: string; status: string }>();
    expect(person.status).toBe('pending');

    const allocated = await api.post('schoolAdmin', '/api/credit/assign/users', {
      organizationId: schoolA,
      userIds: [person.id],
      amount: 30,
      fromOrganizationPoolType: 'shared',
    });
    expect(allocated.statusCode, allocated.body).toBe(200);
    expect(allocated.json()).toMatchObject({
      total: 30,
      users: [{ id: person.id, name: 'Bo Invited', credits: 30 }],
    });
    expect(await listed(schoolA, person.id)).toMatchObject({ status: 'pending', credits: 30 });

    // Some taken back while still pending.
    const reclaimed = await api.post('schoolAdmin', '/api/credit/reclaim/users', {
      organizationId: schoolA,
      userIds: [person.id],
      amount: 10,
      toOrganizationPoolType: 'shared',
    });
    expect(reclaimed.statusCode, reclaimed.body).toBe(200);
    expect(await listed(schoolA, person.id)).toMatchObject({ credits: 20 });

    // Accepted: the membership holds what waited on the invitation.
    const code = codeIn((await lastMailTo(t.db, email)).text_body);
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/invitation/accept',
      payload: { email, organizationId: schoolA, code },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const member = t.world.users.betaOwner.id;
    expect(await listed(schoolA, member)).toMatchObject({ status: 'active', credits: 20 });
  });

  it('are refused for an id that is neither a member nor an invitation of the organization: 404', async () => {
    const response = await api.post('schoolAdmin', '/api/credit/assign/users', {
      organizationId: t.world.orgs.schoolA,
      userIds: [t.world.users.owner.id],
      amount: 1,
      fromOrganizationPoolType: 'shared',
    });
    expect(response.statusCode).toBe(404);
  });
});
