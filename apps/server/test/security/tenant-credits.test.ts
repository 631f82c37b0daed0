import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { insertIntegrationKey } from '../support/integration';
import { ledgerViolations } from '../support/ledger';
import { codeIn, lastMailTo } from '../support/outbox';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/**
 * Issue 30, finding 2 ("one tenant spends another's credits"), replayed as the probe did it: a teacher who
 * holds credits from Alpha District accepts an invitation from Beta Network. Beta's key, Beta's owner and a
 * removal from Beta reach only what Beta gave her; each tenant's logs show only its own moves and people
 * (CONTRACT §5: credits per membership).
 */
let t: TestApp;
let tokens: { alpha: string; beta: string; system: string };
let betaKey: string;
beforeAll(async () => {
  t = await createTestApp();
  tokens = {
    alpha: await sessionFor(t.db, t.world.users.owner.id),
    beta: await sessionFor(t.db, t.world.users.betaOwner.id),
    system: await sessionFor(t.db, t.world.users.systemAdmin.id),
  };
  betaKey = (await insertIntegrationKey(t.db, t.world.orgs.beta)).key;
});
afterAll(() => t.close());

const post = (token: string, url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...bearer(token), ...headers }, payload });
const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

type LogEntry = {
  action: string;
  credits: number;
  description: string;
  by: { id: string | null; name: string; email: string | null } | null;
};
const logOf = async (token: string, organizationId: string) =>
  (await get(token, `/api/organization/${organizationId}/credit-log?limit=100`)).json<{ data: LogEntry[] }>()
    .data;
const creditsOf = async (token: string, organizationId: string, userId: string) => {
  const page = (
    await get(token, `/api/organization/${organizationId}/users?withCredits=true&limit=100`)
  ).json<{
    data: { id: string; credits: number }[];
  }>();
  return page.data.find((u) => u.id === userId)?.credits;
};

describe('a teacher of two tenants: each tenant reaches only the credits it gave', () => {
  it('Beta’s key, owner and removal never touch what Alpha gave; the logs stay in their tenant', async () => {
    const { schoolA, beta } = t.world.orgs;
    const tia = t.world.users.teacher;
    // Alpha gives Tia 500 in School A.
    expect(
      (
        await post(tokens.system, '/api/credit/allocate/system', {
          organizationId: schoolA,
          amount: 1_000,
          toPool: 'shared',
          description: 'Alpha credits',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await post(tokens.alpha, '/api/credit/assign/users', {
          organizationId: schoolA,
          userIds: [tia.id],
          amount: 500,
          fromOrganizationPoolType: 'shared',
        })
      ).statusCode,
    ).toBe(200);

    // Beta invites her address; she accepts with the mailed code.
    const invited = await post(tokens.beta, '/api/user/create', {
      organizationId: beta,
      email: tia.email,
      name: 'Tia at Beta',
      role: 'user',
    });
    expect(invited.statusCode).toBe(201);
    const invitationId = invited.json<{ id: string }>().id;
    // The answer names the invitation, not Alpha's account (CONTRACT §3).
    expect(invitationId).not.toBe(tia.id);
    expect(invited.body).not.toContain(tia.id);
    const code = codeIn((await lastMailTo(t.db, tia.email)).text_body);
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/invitation/accept',
      payload: { email: tia.email, organizationId: beta, code },
    });
    expect(accepted.statusCode).toBe(200);

    // Beta's list shows her with Beta's balance: nothing.
    expect(await creditsOf(tokens.beta, beta, tia.id)).toBe(0);
    expect(await creditsOf(tokens.alpha, schoolA, tia.id)).toBe(500);

    // Beta's key consumes: her own balance in Beta (0), then Beta's shared pool (empty): refused, nothing taken.
    const consumed = await post(
      betaKey,
      '/api/integration/consume',
      { email: tia.email, credits: 600, reference: 'probe-1' },
      { 'idempotency-key': 'probe-1' },
    );
    expect(consumed.statusCode).toBe(422);
    expect(consumed.json()).toMatchObject({ error: 'insufficient_credits', details: { available: 0 } });
    const entitlement = await t.app.inject({
      method: 'GET',
      url: `/api/integration/entitlement?email=${encodeURIComponent(tia.email)}`,
      headers: bearer(betaKey),
    });
    expect(entitlement.json()).toMatchObject({ credits: { own: 0, shared: 0 } });

    // Beta's owner cannot move them: a reclaim from her in Beta finds 0, a transfer to Beta's people too.
    const reclaim = await post(tokens.beta, '/api/credit/reclaim/users', {
      organizationId: beta,
      userIds: [tia.id],
      amount: 100,
      toOrganizationPoolType: 'shared',
    });
    expect(reclaim.statusCode).toBe(422);
    expect(reclaim.json()).toMatchObject({ error: 'insufficient_credits', details: { available: 0 } });
    const transfer = await post(tokens.beta, '/api/credit/transfer/users', {
      sourceUserId: tia.id,
      targetUserId: t.world.users.betaOwner.id,
      amount: 100,
    });
    expect(transfer.statusCode).toBe(422);
    // And no organization of Beta's is one where both... Alpha's School A is not Beta's to name.
    const named = await post(tokens.beta, '/api/credit/transfer/users', {
      sourceUserId: tia.id,
      targetUserId: t.world.users.betaOwner.id,
      amount: 100,
      organizationId: schoolA,
    });
    expect(named.statusCode).toBe(404);

    // Removing her from Beta returns Beta's balance (0) to Beta, nothing of Alpha's.
    const removed = await post(tokens.beta, '/api/user/remove', { organizationId: beta, userIds: [tia.id] });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ creditsReturned: 0 });
    expect(await creditsOf(tokens.alpha, schoolA, tia.id)).toBe(500);
    const betaPools = (await get(tokens.beta, `/api/organization/${beta}?credits=true`)).json<{
      credits: { shared: number };
    }>();
    expect(betaPools.credits.shared).toBe(0);

    // Beta's log shows none of Alpha's moves, people or names; Alpha's none of Beta's.
    const betaLog = JSON.stringify(await logOf(tokens.beta, beta));
    for (const leak of ['Alpha', t.world.users.owner.email, t.world.users.owner.name]) {
      expect(betaLog).not.toContain(leak);
    }
    const alphaLog = JSON.stringify(await logOf(tokens.alpha, schoolA));
    expect(alphaLog).not.toContain('Beta');
    expect(alphaLog).not.toContain(t.world.users.betaOwner.email);
    expect(await ledgerViolations(t.db)).toEqual([]);
  });

  it('a transfer between two people names the organization whose balances move; several shared: 400 naming the field', async () => {
    const { alpha, schoolA } = t.world.orgs;
    const { schoolAdmin, teacher } = t.world.users;
    // Both are members of School A and (now) of the district.
    await t.db.execute(sql`insert into memberships (user_id, organization_id, role) values (${teacher.id}, ${alpha}, 'user')
      on conflict do nothing`);
    await t.db.execute(sql`insert into memberships (user_id, organization_id, role) values (${schoolAdmin.id}, ${alpha}, 'user')
      on conflict do nothing`);
    const ambiguous = await post(tokens.alpha, '/api/credit/transfer/users', {
      sourceUserId: teacher.id,
      targetUserId: schoolAdmin.id,
      amount: 1,
    });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json()).toMatchObject({
      error: 'invalid_input',
      details: { fields: { organizationId: APP_MSG.transferOrganizationAmbiguous } },
    });
    const inSchool = await post(tokens.alpha, '/api/credit/transfer/users', {
      sourceUserId: teacher.id,
      targetUserId: schoolAdmin.id,
      amount: 7,
      organizationId: schoolA,
    });
    expect(inSchool.statusCode).toBe(200);
    expect(await creditsOf(tokens.alpha, schoolA, schoolAdmin.id)).toBe(7);
    // The district's balance of each is untouched.
    expect(await creditsOf(tokens.alpha, alpha, schoolAdmin.id)).toBe(0);
    expect(await creditsOf(tokens.alpha, alpha, teacher.id)).toBe(0);
  });

  it('someone outside the organization is named so in its logs, without id or email', async () => {
    const { schoolB } = t.world.orgs;
    // A person of School B consumes, then leaves: the consumption stays in School B's log, by someone outside.
    const [leaver] = await rows<{ id: string }>(
      t.db,
      sql`insert into users (email, name, email_verified_at) values ('leaver@alpha.test', 'Lee Leaver', now()) returning id`,
    );
    const leaverId = (leaver as { id: string }).id;
    await t.db.execute(
      sql`insert into memberships (user_id, organization_id, role) values (${leaverId}, ${schoolB}, 'user')`,
    );
    await post(tokens.system, '/api/credit/allocate/system', {
      organizationId: schoolB,
      amount: 50,
      toPool: 'shared',
      description: 'School B',
    });
    const alphaKey = (await insertIntegrationKey(t.db, t.world.orgs.alpha)).key;
    const used = await post(
      alphaKey,
      '/api/integration/consume',
      { email: 'leaver@alpha.test', credits: 5, reference: 'lee-1' },
      { 'idempotency-key': 'lee-1' },
    );
    expect(used.statusCode).toBe(200);
    const before = (await logOf(tokens.alpha, schoolB)).find((e) => e.action === 'consumption');
    expect(before?.by).toEqual({ id: leaverId, name: 'Lee Leaver', email: 'leaver@alpha.test' });
    expect(
      (await post(tokens.alpha, '/api/user/remove', { organizationId: schoolB, userIds: [leaverId] }))
        .statusCode,
    ).toBe(200);
    const after = (await logOf(tokens.alpha, schoolB)).find((e) => e.action === 'consumption');
    expect(after).toMatchObject({ credits: -5, by: { id: null, name: APP_MSG.someoneOutside, email: null } });
  });
});
