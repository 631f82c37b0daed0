import { DIFFERENT, MAX_CREDIT_AMOUNT } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callsWithTokens } from '../support/calls';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { createAlphaCopy, giveCredits, PASSWORD, sessionFor } from '../support/world';

/**
 * Every test starts from an Alpha District of its own (support/world.ts `createAlphaCopy`: 500 shared and 200
 * protected, nothing below it, its own people) and makes the balances it needs itself, so that each passes
 * alone and in any order. The system admin and Beta Network are the test world's.
 */
let t: TestApp;
let systemAdminToken: string;
let betaOwnerToken: string;
let w: {
  orgs: Awaited<ReturnType<typeof createAlphaCopy>>['orgs'] & { beta: string };
  users: TestApp['world']['users'];
};
let call: ReturnType<typeof callsWithTokens<'systemAdmin' | 'owner' | 'admin' | 'schoolAdmin' | 'betaOwner'>>;
let teacherToken: string;
beforeAll(async () => {
  t = await createTestApp();
  systemAdminToken = await t.login(t.world.users.systemAdmin.email, PASSWORD);
  betaOwnerToken = await t.login(t.world.users.betaOwner.email, PASSWORD);
});
afterAll(() => t.close());
beforeEach(async () => {
  const alpha = await createAlphaCopy(t.db, t.world.users.systemAdmin.id);
  w = { orgs: { ...alpha.orgs, beta: t.world.orgs.beta }, users: { ...t.world.users, ...alpha.users } };
  call = callsWithTokens(
    t,
    new Map([
      ['systemAdmin', systemAdminToken],
      ['owner', await sessionFor(t.db, w.users.owner.id)],
      ['admin', await sessionFor(t.db, w.users.admin.id)],
      ['schoolAdmin', await sessionFor(t.db, w.users.schoolAdmin.id)],
      ['betaOwner', betaOwnerToken],
    ] as const),
  );
  teacherToken = await sessionFor(t.db, w.users.teacher.id);
});

type Who = Parameters<typeof call.post>[0];

async function pools(orgId: string) {
  const response = await call.get('systemAdmin', `/api/organization/${orgId}?credits=true`);
  return response.json<{ credits: { shared: number; protected: number } }>().credits;
}

async function userCredits(orgId: string, userId: string) {
  const response = await call.get(
    'systemAdmin',
    `/api/organization/${orgId}/users?withCredits=true&limit=100`,
  );
  const rows = response.json<{ data: { id: string; credits: number }[] }>().data;
  return rows.find((r) => r.id === userId)?.credits;
}

/** Credits minted straight into an organization's pools (support/world.ts). */
function give(orgId: string, credits: { shared?: number; protected?: number }) {
  return giveCredits(t.db, orgId, credits, t.world.users.systemAdmin.id);
}

/**
 * Alpha District at 400 shared and 1,000 protected after handing 100 shared each to School A, School B and the
 * Annex, which hold 100 shared each.
 */
async function hundredEachBelowAlpha() {
  await give(w.orgs.alpha, { shared: 200, protected: 800 });
  const response = await call.post('owner', '/api/credit/assign/organizations', {
    amount: 100,
    sourceOrganizationId: w.orgs.alpha,
    fromOrganizationPoolType: 'shared',
    targetOrganizationIds: [w.orgs.schoolA, w.orgs.schoolB, w.orgs.annex],
    toOrganizationPoolType: 'shared',
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function log(orgId: string, who: Who = 'owner', query = '') {
  const response = await call.get(who, `/api/organization/${orgId}/credit-log${query}`);
  expect(response.statusCode).toBe(200);
  return response.json<{
    data: { action: string; credits: number; description: string; by: { name: string } | null }[];
    pagination: { hasNext: boolean; nextPageToken: string | null; limit: number };
  }>();
}

describe('credit moves (CONTRACT §5)', () => {
  it('a system admin mints into a pool, with its description in the log', async () => {
    const response = await call.post('systemAdmin', '/api/credit/allocate/system', {
      organizationId: w.orgs.alpha,
      amount: 1000,
      toPool: 'protected',
      description: 'Term 1 top-up',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      action: 'system_allocation',
      amount: 1000,
      total: 1000,
      organizations: [{ id: w.orgs.alpha, credits: { shared: 500, protected: 1200 } }],
    });
    const [entry] = (await log(w.orgs.alpha)).data;
    expect(entry).toMatchObject({
      action: 'system_allocation',
      credits: 1000,
      description: 'Term 1 top-up',
      by: { name: 'Sam System' },
    });
  });

  it('only a system admin mints: 403 for an owner, 404 outside the tenant', async () => {
    await give(w.orgs.alpha, { protected: 1000 });
    const body = { organizationId: w.orgs.alpha, amount: 5, toPool: 'shared', description: 'x' };
    expect((await call.post('owner', '/api/credit/allocate/system', body)).statusCode).toBe(403);
    expect((await call.post('betaOwner', '/api/credit/allocate/system', body)).statusCode).toBe(404);
    expect(await pools(w.orgs.alpha)).toEqual({ shared: 500, protected: 1200 });
  });

  it('moves between the pools of one organization, and says so in the log', async () => {
    await give(w.orgs.alpha, { protected: 1000 });
    const response = await call.post('owner', '/api/credit/transfer/pools', {
      organizationId: w.orgs.alpha,
      amount: 200,
      fromPool: 'protected',
      toPool: 'shared',
    });
    expect(response.statusCode).toBe(200);
    expect(await pools(w.orgs.alpha)).toEqual({ shared: 700, protected: 1000 });
    const [entry] = (await log(w.orgs.alpha)).data;
    expect(entry).toMatchObject({
      action: 'pool_transfer',
      credits: 200,
      description: '200 from the protected pool to the shared pool',
      by: { name: 'Olga Owner' },
    });
  });

  it('allocates the amount to each target below the source, in one transaction', async () => {
    await give(w.orgs.alpha, { shared: 200, protected: 800 });
    const response = await call.post('owner', '/api/credit/assign/organizations', {
      amount: 100,
      sourceOrganizationId: w.orgs.alpha,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [w.orgs.schoolA, w.orgs.schoolB, w.orgs.annex],
      toOrganizationPoolType: 'shared',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ amount: 100, total: 300 });
    expect(await pools(w.orgs.alpha)).toEqual({ shared: 400, protected: 1000 });
    for (const org of [w.orgs.schoolA, w.orgs.schoolB, w.orgs.annex]) {
      expect(await pools(org)).toEqual({ shared: 100, protected: 0 });
    }
    const [districtEntry] = (await log(w.orgs.alpha)).data;
    expect(districtEntry).toMatchObject({
      action: 'assign_organizations',
      credits: -300,
      description:
        '100 each to Alpha School A, Alpha School B, Alpha Annex from the shared pool of Alpha District, into their shared pools',
    });
    const [schoolEntry] = (await log(w.orgs.schoolB)).data;
    expect(schoolEntry).toMatchObject({ action: 'assign_organizations', credits: 100 });
  });

  it('refuses more than the source pool holds, word for word, and changes nothing', async () => {
    await hundredEachBelowAlpha();
    const before = (await log(w.orgs.alpha)).data.length;
    const response = await call.post('owner', '/api/credit/assign/organizations', {
      amount: 300,
      sourceOrganizationId: w.orgs.alpha,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [w.orgs.schoolA, w.orgs.schoolB],
      toOrganizationPoolType: 'shared',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      error: 'insufficient_credits',
      message: MSG.notEnoughCredits('shared'),
    });
    expect(await pools(w.orgs.alpha)).toEqual({ shared: 400, protected: 1000 });
    expect(await pools(w.orgs.schoolA)).toEqual({ shared: 100, protected: 0 });
    expect((await log(w.orgs.alpha)).data.length).toBe(before);
  });

  it('moves only down the hierarchy and back: a sibling is 403, another tenant 404, a teacher sees nothing', async () => {
    await give(w.orgs.schoolA, { shared: 100 });
    const assign = (who: Who, source: string, targets: string[]) =>
      call.post(who, '/api/credit/assign/organizations', {
        amount: 1,
        sourceOrganizationId: source,
        fromOrganizationPoolType: 'shared',
        targetOrganizationIds: targets,
        toOrganizationPoolType: 'shared',
      });
    const sibling = await assign('owner', w.orgs.schoolA, [w.orgs.schoolB]);
    expect(sibling.statusCode).toBe(403);
    expect(sibling.json().message).toBe(
      'Credits move only between Alpha School A and the organizations below it.',
    );
    expect((await assign('owner', w.orgs.schoolA, [w.orgs.alpha])).statusCode).toBe(403);
    expect((await assign('owner', w.orgs.alpha, [w.orgs.beta])).statusCode).toBe(404);
    expect((await assign('schoolAdmin', w.orgs.alpha, [w.orgs.schoolA])).statusCode).toBe(404);
    expect((await assign('schoolAdmin', w.orgs.schoolA, [w.orgs.schoolB])).statusCode).toBe(404);
    expect((await assign('betaOwner', w.orgs.alpha, [w.orgs.schoolA])).statusCode).toBe(404);
    expect((await assign('schoolAdmin', w.orgs.schoolA, [w.orgs.annex])).statusCode).toBe(200);
    const teacher = await t.app.inject({
      method: 'POST',
      url: '/api/credit/transfer/pools',
      headers: bearer(teacherToken),
      payload: { organizationId: w.orgs.schoolA, amount: 1, fromPool: 'shared', toPool: 'protected' },
    });
    expect(teacher.statusCode).toBe(404);
  });

  it('reclaims from each source with its strategy; a source short is named with what it has', async () => {
    // School A: 99 shared (one went to the Annex), 0 protected. School B: 100 shared.
    await hundredEachBelowAlpha();
    const toAnnex = await call.post('schoolAdmin', '/api/credit/assign/organizations', {
      amount: 1,
      sourceOrganizationId: w.orgs.schoolA,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [w.orgs.annex],
      toOrganizationPoolType: 'shared',
    });
    expect(toAnnex.statusCode).toBe(200);
    const reclaim = (amount: number, strategy: string) =>
      call.post('owner', '/api/credit/reclaim/organizations', {
        amount,
        sourceOrganizationIds: [w.orgs.schoolB, w.orgs.schoolA],
        reclaimFromStrategy: strategy,
        targetOrganizationId: w.orgs.alpha,
        toOrganizationPoolType: 'protected',
      });
    const short = await reclaim(100, 'shared_first');
    expect(short.statusCode).toBe(422);
    expect(short.json()).toMatchObject({
      error: 'insufficient_credits',
      message: MSG.sourceOnlyHas('Alpha School A', 99),
      details: { available: 99 },
    });
    expect(await pools(w.orgs.schoolB)).toEqual({ shared: 100, protected: 0 });

    expect((await reclaim(50, 'protected')).json().message).toBe(MSG.sourceOnlyHas('Alpha School B', 0));
    const done = await reclaim(40, 'protected_first');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ amount: 40, total: 80 });
    expect(await pools(w.orgs.schoolA)).toEqual({ shared: 59, protected: 0 });
    expect(await pools(w.orgs.schoolB)).toEqual({ shared: 60, protected: 0 });
    expect(await pools(w.orgs.alpha)).toEqual({ shared: 400, protected: 1080 });
    const [entry] = (await log(w.orgs.alpha)).data;
    expect(entry).toMatchObject({
      action: 'reclaim_organizations',
      credits: 80,
      description:
        '40 each from Alpha School B, Alpha School A (their shared pools) into the protected pool of Alpha District',
    });
  });

  it('transfers between two organizations the caller manages, and refuses a transfer to itself', async () => {
    await give(w.orgs.schoolA, { shared: 59 });
    await give(w.orgs.schoolB, { shared: 60 });
    const transfer = (who: Who, source: string, target: string, amount = 10) =>
      call.post(who, '/api/credit/transfer/organizations', {
        amount,
        sourceOrganizationId: source,
        fromOrganizationPoolType: 'shared',
        targetOrganizationId: target,
        toOrganizationPoolType: 'protected',
      });
    expect((await transfer('owner', w.orgs.schoolA, w.orgs.schoolB)).statusCode).toBe(200);
    expect(await pools(w.orgs.schoolB)).toEqual({ shared: 60, protected: 10 });
    const tooMuch = await transfer('owner', w.orgs.schoolA, w.orgs.schoolB, 50);
    expect(tooMuch.json()).toMatchObject({ message: MSG.sourceOnlyHas('Alpha School A', 49) });
    const itself = await transfer('owner', w.orgs.schoolA, w.orgs.schoolA);
    expect(itself.statusCode).toBe(400);
    expect(itself.json().details.fields).toEqual({ targetOrganizationId: DIFFERENT.organization });
    expect((await transfer('schoolAdmin', w.orgs.schoolA, w.orgs.schoolB)).statusCode).toBe(404);
    expect((await transfer('owner', w.orgs.schoolA, w.orgs.beta)).statusCode).toBe(404);
    const samePool = await call.post('owner', '/api/credit/transfer/pools', {
      organizationId: w.orgs.alpha,
      amount: 1,
      fromPool: 'shared',
      toPool: 'shared',
    });
    expect(samePool.json().details.fields).toEqual({ toPool: DIFFERENT.pool });
  });

  it('allocates to members, reclaims from them and transfers between them', async () => {
    const { schoolA } = w.orgs;
    const { teacher, schoolAdmin } = w.users;
    await give(schoolA, { shared: 49 });
    const assign = await call.post('schoolAdmin', '/api/credit/assign/users', {
      amount: 20,
      userIds: [teacher.id, schoolAdmin.id],
      organizationId: schoolA,
      fromOrganizationPoolType: 'shared',
    });
    expect(assign.statusCode).toBe(200);
    expect(assign.json().users).toEqual(
      expect.arrayContaining([
        { id: teacher.id, name: 'Tia Teacher', credits: 20 },
        { id: schoolAdmin.id, name: 'Sid School', credits: 20 },
      ]),
    );
    expect(await pools(schoolA)).toEqual({ shared: 9, protected: 0 });
    expect(await userCredits(schoolA, teacher.id)).toBe(20);

    const transfer = await call.post('schoolAdmin', '/api/credit/transfer/users', {
      amount: 5,
      sourceUserId: schoolAdmin.id,
      targetUserId: teacher.id,
    });
    expect(transfer.statusCode).toBe(200);
    expect(await userCredits(schoolA, teacher.id)).toBe(25);
    const short = await call.post('schoolAdmin', '/api/credit/transfer/users', {
      amount: 16,
      sourceUserId: schoolAdmin.id,
      targetUserId: teacher.id,
    });
    expect(short.json()).toMatchObject({ message: MSG.sourceOnlyHas('Sid School', 15) });

    const reclaimShort = await call.post('schoolAdmin', '/api/credit/reclaim/users', {
      amount: 20,
      userIds: [teacher.id, schoolAdmin.id],
      organizationId: schoolA,
      toOrganizationPoolType: 'protected',
    });
    expect(reclaimShort.statusCode).toBe(422);
    expect(reclaimShort.json().message).toBe(MSG.sourceOnlyHas('Sid School', 15));
    expect(await userCredits(schoolA, teacher.id)).toBe(25);

    const reclaim = await call.post('schoolAdmin', '/api/credit/reclaim/users', {
      amount: 15,
      userIds: [teacher.id, schoolAdmin.id],
      organizationId: schoolA,
      toOrganizationPoolType: 'protected',
    });
    expect(reclaim.statusCode).toBe(200);
    expect(await pools(schoolA)).toEqual({ shared: 9, protected: 30 });
    const entries = (await log(schoolA, 'schoolAdmin')).data;
    expect(entries.slice(0, 3).map((e) => [e.action, e.credits, e.description])).toEqual([
      ['reclaim_users', 30, '15 each from Tia Teacher, Sid School into the protected pool'],
      ['transfer_users', 5, '5 from Sid School to Tia Teacher'],
      ['assign_users', -40, '20 each to Tia Teacher, Sid School from the shared pool'],
    ]);
  });

  it('moves credits of members only: anyone else is 404', async () => {
    const body = {
      amount: 1,
      userIds: [w.users.betaOwner.id],
      organizationId: w.orgs.schoolA,
      fromOrganizationPoolType: 'shared',
    };
    expect((await call.post('owner', '/api/credit/assign/users', body)).statusCode).toBe(404);
    const transfer = await call.post('schoolAdmin', '/api/credit/transfer/users', {
      amount: 1,
      sourceUserId: w.users.teacher.id,
      targetUserId: w.users.owner.id,
    });
    expect(transfer.statusCode).toBe(404);
    const same = await call.post('owner', '/api/credit/transfer/users', {
      amount: 1,
      sourceUserId: w.users.teacher.id,
      targetUserId: w.users.teacher.id,
    });
    expect(same.json().details.fields).toEqual({ targetUserId: DIFFERENT.user });
  });

  it.each([
    [0, MSG.creditsGreaterThanZero],
    [-5, MSG.creditsGreaterThanZero],
    [1.5, MSG.invalidNumber],
    ['10', MSG.onlyNumbers],
    [null, MSG.required],
    [1e308, MSG.max(MAX_CREDIT_AMOUNT)],
    [true, MSG.onlyNumbers],
  ])('refuses the amount %s with a 400 naming the field', async (amount, message) => {
    const response = await call.post('owner', '/api/credit/transfer/pools', {
      organizationId: w.orgs.alpha,
      amount,
      fromPool: 'shared',
      toPool: 'protected',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'invalid_input',
      details: { fields: { amount: message } },
    });
  });

  it('refuses a list naming one organization twice', async () => {
    const response = await call.post('owner', '/api/credit/assign/organizations', {
      amount: 1,
      sourceOrganizationId: w.orgs.alpha,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [w.orgs.schoolA, w.orgs.schoolA.toUpperCase()],
      toOrganizationPoolType: 'shared',
    });
    expect(response.statusCode).toBe(400);
  });

  it('answers 401 before reading the body', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/credit/transfer/pools', payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe('Idempotency-Key on credit moves', () => {
  const body = () => ({
    organizationId: w.orgs.alpha,
    amount: 7,
    fromPool: 'shared',
    toPool: 'protected',
  });
  const post = (key: string, payload: object, who: Who = 'owner', url = '/api/credit/transfer/pools') =>
    call.post(who, url, payload, { 'idempotency-key': key });

  it('a repeat with the same key and body answers the first answer and moves nothing', async () => {
    const before = await pools(w.orgs.alpha);
    const first = await post('move-1', body());
    const again = await post('move-1', body());
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await pools(w.orgs.alpha)).toEqual({
      shared: before.shared - 7,
      protected: before.protected + 7,
    });
  });

  it('the same key with another body is 409 idempotency_key_reused; keys are per caller', async () => {
    expect((await post('move-1', body())).statusCode).toBe(200);
    const reused = await post('move-1', { ...body(), amount: 8 });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toBe('idempotency_key_reused');
    const otherRoute = await post('move-1', { ...body() }, 'owner', '/api/credit/transfer/organizations');
    expect([400, 409]).toContain(otherRoute.statusCode);
    const otherCaller = await post('move-1', body(), 'admin');
    expect(otherCaller.statusCode).toBe(200);
    expect(otherCaller.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a refused move is answered alike on a repeat, even after the balance would allow it', async () => {
    const huge = { ...body(), amount: 50_000 };
    const first = await post('big-1', huge);
    expect(first.statusCode).toBe(422);
    await call.post('systemAdmin', '/api/credit/allocate/system', {
      organizationId: w.orgs.alpha,
      amount: 60_000,
      toPool: 'shared',
      description: 'more',
    });
    const again = await post('big-1', huge);
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual(first.json());
    expect((await post('big-2', huge)).statusCode).toBe(200);
  });

  it('ten requests with one key at once move the credits once', async () => {
    const before = await pools(w.orgs.alpha);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('burst-1', body())));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.json().transactionId)).size).toBe(1);
    expect(await pools(w.orgs.alpha)).toEqual({
      shared: before.shared - 7,
      protected: before.protected + 7,
    });
  });

  it('a key that is not 1–255 printable characters is a 400 naming the header', async () => {
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'é']) {
      const response = await post(key, body());
      expect(response.statusCode, JSON.stringify(key)).toBe(400);
      expect(response.json().details.fields).toHaveProperty('Idempotency-Key');
    }
  });
});

describe('credit log', () => {
  it('pages by cursor, newest first, stable while new entries arrive', async () => {
    // Seven moves after the district's first allocation of 700, each of its own amount.
    for (let amount = 1; amount <= 7; amount++) {
      const move = await call.post('owner', '/api/credit/transfer/pools', {
        organizationId: w.orgs.alpha,
        amount,
        fromPool: 'shared',
        toPool: 'protected',
      });
      expect(move.statusCode).toBe(200);
    }
    const all = (await log(w.orgs.alpha, 'owner', '?limit=100')).data;
    expect(all.length).toBeGreaterThan(6);
    const first = await log(w.orgs.alpha, 'owner', '?limit=3');
    expect(first.pagination).toMatchObject({ limit: 3, hasNext: true });
    // A new move arrives between two pages: the next page continues where the first ended.
    await call.post('owner', '/api/credit/transfer/pools', {
      organizationId: w.orgs.alpha,
      amount: 1,
      fromPool: 'shared',
      toPool: 'protected',
    });
    const second = await log(w.orgs.alpha, 'owner', `?limit=3&pageToken=${first.pagination.nextPageToken}`);
    expect([...first.data, ...second.data]).toEqual(all.slice(0, 6));
    const last = await log(w.orgs.alpha, 'owner', `?limit=100&pageToken=${first.pagination.nextPageToken}`);
    expect(last.pagination).toEqual({ limit: 100, hasNext: false, nextPageToken: null });
    expect(last.data.at(-1)).toMatchObject({ action: 'system_allocation', credits: 700 });
  });

  it('needs view_audit_logs inside the caller’s tree; a bad token is a 400', async () => {
    expect((await call.get('betaOwner', `/api/organization/${w.orgs.alpha}/credit-log`)).statusCode).toBe(
      404,
    );
    expect((await call.get('schoolAdmin', `/api/organization/${w.orgs.alpha}/credit-log`)).statusCode).toBe(
      404,
    );
    const bad = await call.get('owner', `/api/organization/${w.orgs.alpha}/credit-log?pageToken=nonsense`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields).toHaveProperty('pageToken');
    const limit = await call.get('owner', `/api/organization/${w.orgs.alpha}/credit-log?limit=101`);
    expect(limit.json().details.fields).toEqual({ limit: MSG.max(100) });
  });

  it('adds up to the balance: the signed entries of a school sum to its pools', async () => {
    // School B: 100 in, 10 more into its protected pool from School A, 30 reclaimed.
    await hundredEachBelowAlpha();
    const transfer = await call.post('owner', '/api/credit/transfer/organizations', {
      amount: 10,
      sourceOrganizationId: w.orgs.schoolA,
      fromOrganizationPoolType: 'shared',
      targetOrganizationId: w.orgs.schoolB,
      toOrganizationPoolType: 'protected',
    });
    expect(transfer.statusCode).toBe(200);
    const reclaim = await call.post('owner', '/api/credit/reclaim/organizations', {
      amount: 30,
      sourceOrganizationIds: [w.orgs.schoolB],
      reclaimFromStrategy: 'shared_first',
      targetOrganizationId: w.orgs.alpha,
      toOrganizationPoolType: 'protected',
    });
    expect(reclaim.statusCode).toBe(200);
    expect(await pools(w.orgs.schoolB)).toEqual({ shared: 70, protected: 10 });
    const entries = (await log(w.orgs.schoolB, 'owner', '?limit=100')).data;
    const pooled = await pools(w.orgs.schoolB);
    expect(entries.reduce((sum, e) => sum + e.credits, 0)).toBe(pooled.shared + pooled.protected);
  });
});
