import { randomBytes, randomUUID } from 'node:crypto';
import { INTEGRATION_MSG } from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../src/db/client';
import { rows } from '../src/db/rows';
import {
  memberAccountId,
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../src/features/credits/journal';
import { hashIntegrationKey } from '../src/features/integration/key-auth';
import { insertOrganization } from '../src/features/organizations/tree';
import { bearer, createTestApp, type TestApp } from './support/test-app';
import { giveLicense, PASSWORD, sessionFor, type World } from './support/world';

/**
 * Every endpoint × every kind of caller. Each later issue adds its endpoints here; the last test
 * fails when the OpenAPI document lists an endpoint this table does not cover.
 */
const ACTORS = ['systemAdmin', 'owner', 'admin', 'teacher', 'none', 'unrelated'] as const;
type Actor = (typeof ACTORS)[number];
type Expected = Record<Actor, number>;

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** `target` is what `prepare` made for this one call (a fresh organization to change or delete). */
  url: (w: World, target: string) => string;
  body?: (w: World, userId: string | null) => unknown;
  prepare?: (t: TestApp) => Promise<string>;
  expect: Expected;
}

const all = (status: number): Expected => Object.fromEntries(ACTORS.map((a) => [a, status])) as Expected;
/** An organization under Alpha School A: seen by its district's owner and admin, not by Beta's owner. */
const inAlpha = (ok: number, admin = ok): Expected => ({
  systemAdmin: ok,
  owner: ok,
  admin,
  teacher: 404,
  none: 401,
  unrelated: 404,
});
const freshLeaf = (t: TestApp) =>
  t.db.transaction((tx) =>
    insertOrganization(tx, {
      name: 'Leaf',
      type: 'school',
      phoneNumber: '5550001111',
      parentId: t.world.orgs.schoolA,
    }),
  );
/** The licence calls of system admins: others who see the organization get 403. */
const systemAdminOnly = (ok: number): Expected => ({ ...inAlpha(403), systemAdmin: ok });
/** A new leaf under Alpha School A with a Chorus licence of 5 seats; answers the licence's id. */
let lastLeaf = '';
const licensedLeaf = async (t: TestApp) => {
  lastLeaf = await freshLeaf(t);
  return (await giveLicense(t.db, lastLeaf, 'chorus', 5)).id;
};
/** An open credit invoice of Alpha School A, created by the district's owner; answers its id. */
const openInvoice = async (t: TestApp) => {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/invoice/create',
    headers: bearer(await sessionFor(t.db, t.world.users.owner.id)),
    payload: {
      organizationId: t.world.orgs.schoolA,
      kind: 'credits',
      credits: 1000,
      customerEmail: 'pay@alpha.test',
    },
  });
  return answer.json<{ id: string }>().id;
};
const SEEDED_PRICES = {
  currency: 'USD',
  licenses: [
    { licenseType: 'chorus', pricePerSeatMonth: 400, hasFreeTier: false },
    { licenseType: 'tle_creator', pricePerSeatMonth: 900, hasFreeTier: false },
    { licenseType: 'tle_teacher', pricePerSeatMonth: 300, hasFreeTier: true },
    { licenseType: 'chorus_optoma', pricePerSeatMonth: 600, hasFreeTier: false },
  ],
  creditPacks: [{ credits: 1000, price: 1000 }],
};
/** A new teacher of Alpha School A, for the calls that change or remove one person. */
let lastMember = { userId: '', organizationId: '' };
const freshMember = async (t: TestApp) => {
  const [user] = await rows<{ id: string }>(
    t.db,
    sql`insert into users (email, name, email_verified_at)
        values (${`member-${Math.random()}@alpha.test`}, 'Member', now()) returning id`,
  );
  if (!user) throw new Error('member insert failed');
  await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
    values (${user.id}, ${t.world.orgs.schoolA}, 'user')`);
  lastMember = { userId: user.id, organizationId: t.world.orgs.schoolA };
  return user.id;
};
/** A person of Alpha School A whose invitation is pending: a new account not set up yet; answers its id. */
const freshPending = async (t: TestApp) => {
  const [user] = await rows<{ id: string }>(
    t.db,
    sql`insert into users (email, name) values (${`pending-${Math.random()}@alpha.test`}, 'Pending')
        returning id`,
  );
  if (!user) throw new Error('pending insert failed');
  await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
    values (${user.id}, ${t.world.orgs.schoolA}, 'user')`);
  return user.id;
};
/** An account that existed, invited to own Alpha School A: above an admin; answers the invitation's id. */
const freshOwnerInvitation = async (t: TestApp) => {
  const email = `invited-owner-${Math.random()}@alpha.test`;
  const [user] = await rows<{ id: string }>(
    t.db,
    sql`insert into users (email, name, email_verified_at) values (${email}, 'Invited Owner', now())
        returning id`,
  );
  if (!user) throw new Error('invited insert failed');
  const [invitation] = await rows<{ id: string }>(
    t.db,
    sql`insert into membership_invitations
        (user_id, organization_id, role, invited_name, invited_email, invited_by)
      values (${user.id}, ${t.world.orgs.schoolA}, 'organization_owner', 'Invited Owner', ${email},
        ${t.world.users.owner.id})
      returning id`,
  );
  if (!invitation) throw new Error('invitation insert failed');
  return invitation.id;
};
const orgBody = { name: 'Renamed', type: 'school', phoneNumber: '+1 555 000 2222' };
/** Mints 10 credits into Alpha School A's shared pool, or into the balance of a fresh member of it. */
const mint = (t: TestApp, account: (tx: Tx) => Promise<string>) =>
  t.db.transaction(async (tx) =>
    postCreditTransaction(tx, {
      action: 'system_allocation',
      actorId: null,
      lines: [
        { accountId: await systemAccountId(tx), amount: -10 },
        { accountId: await account(tx), amount: 10 },
      ],
    }),
  );
const fundedSchool = async (t: TestApp) => {
  await mint(t, (tx) => organizationPoolAccountId(tx, t.world.orgs.schoolA, 'shared'));
  return '';
};
const fundedMember = async (t: TestApp) => {
  const userId = await freshMember(t);
  await mint(t, (tx) => memberAccountId(tx, userId, t.world.orgs.schoolA));
  return userId;
};
/** A secret set up and waiting to be confirmed, for every person of the world (enable then checks a code). */
const waitingSecrets = async (t: TestApp) => {
  await t.db.execute(sql`insert into user_mfa (user_id, secret)
    select id, 'plain:JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' from users on conflict (user_id) do nothing`);
  return '';
};
const move = (extra: Record<string, unknown>) => ({ amount: 1, ...extra });
/** An open request of a new leaf for 1 credit of Alpha School A, whose shared pool has 10; answers its id. */
const openRequest = async (t: TestApp) => {
  const leaf = await freshLeaf(t);
  await fundedSchool(t);
  const [request] = await rows<{ id: string }>(
    t.db,
    sql`insert into organization_requests (organization_id, parent_organization_id, kind, amount, pool, created_by)
        values (${leaf}, ${t.world.orgs.schoolA}, 'credits', 1, 'shared', ${t.world.users.schoolAdmin.id})
        returning id`,
  );
  if (!request) throw new Error('request insert failed');
  return request.id;
};
/** A live integration key of an organization, stored as key management stores one (its hash only). */
const insertKey = async (t: TestApp, organizationId: string) => {
  const key = `allot_sk_${randomBytes(32).toString('base64url')}`;
  const [row] = await rows<{ id: string }>(
    t.db,
    sql`insert into integration_keys (organization_id, name, prefix, key_hash)
        values (${organizationId}, 'Matrix key', ${key.slice(0, 15)}, ${hashIntegrationKey(key)}) returning id`,
  );
  if (!row) throw new Error('key insert failed');
  return { id: row.id, key };
};
/** A fresh key of Alpha School A, for the revocation row; answers its id. */
const freshKey = async (t: TestApp) => (await insertKey(t, t.world.orgs.schoolA)).id;
/** The integration calls (CONTRACT §9): every session token is refused, whoever holds it. */
const keyCall = all(401);

const MATRIX: Row[] = [
  { method: 'GET', path: '/api/health', url: () => '/api/health', expect: all(200) },
  { method: 'GET', path: '/api/health/live', url: () => '/api/health/live', expect: all(200) },
  { method: 'GET', path: '/api/health/ready', url: () => '/api/health/ready', expect: all(200) },
  // Off without METRICS_TOKEN (the test app has none); with it, only that token (test/metrics).
  { method: 'GET', path: '/api/metrics', url: () => '/api/metrics', expect: all(404) },
  // Public: the sign-in screen's footer reads it (issue 36).
  { method: 'GET', path: '/api/public-config', url: () => '/api/public-config', expect: all(200) },
  {
    method: 'POST',
    path: '/api/auth/login',
    url: () => '/api/auth/login',
    // One email per caller: six wrong passwords in a row for one account from one address make the sixth wait.
    body: (_w, userId) => ({
      email: `nobody-${userId ?? 'anonymous'}@nowhere.test`,
      password: 'wrong-password',
    }),
    expect: all(401),
  },
  {
    method: 'POST',
    path: '/api/auth/validate',
    url: () => '/api/auth/validate',
    body: (_w, userId) => ({ id: userId ?? 'x', email: 'x@x.test' }),
    expect: all(200),
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    url: () => '/api/auth/logout',
    expect: { ...all(200), none: 401 },
  },
  // The public account calls: every caller gets the same answer (a wrong code, or success).
  {
    method: 'POST',
    path: '/api/auth/verify',
    url: () => '/api/auth/verify',
    // One email per caller: the code guesses of one address are rate limited.
    body: (_w, userId) => ({ email: `nobody-${userId ?? 'anonymous'}@nowhere.test`, code: '123456' }),
    expect: all(400),
  },
  {
    method: 'POST',
    path: '/api/auth/verify/resend',
    url: () => '/api/auth/verify/resend',
    body: () => ({ email: 'nobody@nowhere.test' }),
    expect: all(200),
  },
  {
    method: 'POST',
    path: '/api/auth/password/forgot',
    url: () => '/api/auth/password/forgot',
    body: () => ({ email: 'nobody@nowhere.test' }),
    expect: all(200),
  },
  {
    method: 'POST',
    path: '/api/auth/password/check',
    url: () => '/api/auth/password/check',
    body: (_w, userId) => ({ userId: userId ?? 'anonymous', token: 'made-up-token', code: '123456' }),
    expect: all(400),
  },
  {
    method: 'POST',
    path: '/api/auth/password/reset',
    url: () => '/api/auth/password/reset',
    body: (_w, userId) => ({
      userId: userId ?? 'anonymous',
      token: 'made-up-token',
      code: '123456',
      password: 'a-long-enough-password',
    }),
    expect: all(400),
  },
  // The calls a person makes from a mail, signed in or not: the same refusal of a made-up code for all.
  {
    method: 'POST',
    path: '/api/auth/invitation/accept',
    url: () => '/api/auth/invitation/accept',
    body: (w, userId) => ({
      email: `nobody-${userId ?? 'anonymous'}@nowhere.test`,
      organizationId: w.orgs.alpha,
      code: '123456',
    }),
    expect: all(400),
  },
  {
    method: 'POST',
    path: '/api/auth/invitation/resend',
    url: () => '/api/auth/invitation/resend',
    body: (w) => ({ email: 'nobody@nowhere.test', organizationId: w.orgs.alpha }),
    expect: all(200),
  },
  {
    method: 'POST',
    path: '/api/auth/email/confirm',
    url: () => '/api/auth/email/confirm',
    body: (_w, userId) => ({ userId: userId ?? 'anonymous', token: 'made-up-token', code: '123456' }),
    expect: all(400),
  },
  // Two-factor of one's own account (decision 015): each signed-in caller acts on its own account (the same
  // answer for all); without a session (and without a setup challenge) the private ones are 401.
  {
    method: 'GET',
    path: '/api/auth/mfa',
    url: () => '/api/auth/mfa',
    expect: { ...all(200), none: 401 },
  },
  {
    method: 'POST',
    path: '/api/auth/mfa/setup',
    url: () => '/api/auth/mfa/setup',
    body: () => ({ password: PASSWORD }),
    expect: { ...all(200), none: 401 },
  },
  {
    method: 'POST',
    path: '/api/auth/mfa/enable',
    url: () => '/api/auth/mfa/enable',
    prepare: waitingSecrets,
    body: () => ({ code: '000000' }),
    expect: { ...all(400), none: 401 },
  },
  {
    method: 'POST',
    path: '/api/auth/mfa/disable',
    url: () => '/api/auth/mfa/disable',
    body: () => ({ password: PASSWORD, code: '123456' }),
    expect: { ...all(422), none: 401 },
  },
  {
    method: 'POST',
    path: '/api/auth/mfa/recovery-codes',
    url: () => '/api/auth/mfa/recovery-codes',
    body: () => ({ password: PASSWORD, code: '123456' }),
    expect: { ...all(422), none: 401 },
  },
  {
    method: 'POST',
    path: '/api/auth/mfa/verify',
    url: () => '/api/auth/mfa/verify',
    body: () => ({ challenge: 'made-up-challenge', code: '123456' }),
    expect: all(401),
  },
  {
    method: 'GET',
    path: '/api/organization',
    url: () => '/api/organization',
    expect: { ...all(200), none: 401 },
  },
  {
    method: 'GET',
    path: '/api/organization/{id}',
    url: (w) => `/api/organization/${w.orgs.schoolA}?permissionsAndRole=true`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/search',
    url: () => '/api/organization/search?search=a',
    expect: { ...all(200), none: 401 },
  },
  {
    method: 'GET',
    path: '/api/user/search',
    url: () => '/api/user/search',
    expect: { ...all(200), none: 401 },
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/sub-organizations',
    url: (w) => `/api/organization/${w.orgs.schoolA}/sub-organizations`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/parent-organizations',
    url: (w) => `/api/organization/${w.orgs.schoolA}/parent-organizations`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/credits',
    url: (w) => `/api/organization/${w.orgs.schoolA}/credits`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/users',
    url: (w) => `/api/organization/${w.orgs.schoolA}/users?withCredits=true`,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/organization/create',
    url: () => '/api/organization/create',
    body: (w) => ({ ...orgBody, parentOrganizationId: w.orgs.schoolA }),
    expect: inAlpha(201),
  },
  {
    method: 'POST',
    path: '/api/organization/{id}/update',
    url: (_w, target) => `/api/organization/${target}/update`,
    prepare: freshLeaf,
    body: () => orgBody,
    expect: inAlpha(200),
  },
  // Two-factor required of a subtree: owners (and system admins) only; an admin sees it and gets 403. Those
  // allowed then need their own two-factor and a code (CONTRACT §3): the world's accounts have none, so they get
  // past the permission to the `422` that asks for it (two-factor-requirement.test.ts proves the rest).
  {
    method: 'POST',
    path: '/api/organization/{id}/security',
    url: (_w, target) => `/api/organization/${target}/security`,
    prepare: freshLeaf,
    body: () => ({ requireMfa: false }),
    expect: inAlpha(422, 403),
  },
  {
    method: 'DELETE',
    path: '/api/organization/{id}/delete',
    url: (_w, target) => `/api/organization/${target}/delete`,
    prepare: freshLeaf,
    expect: inAlpha(200, 403),
  },
  {
    method: 'POST',
    path: '/api/user/create',
    url: () => '/api/user/create',
    body: (w, userId) => ({
      email: `new-${userId ?? 'anonymous'}@alpha.test`,
      name: 'New Person',
      organizationId: w.orgs.schoolA,
      role: 'user',
    }),
    expect: inAlpha(201),
  },
  {
    method: 'POST',
    path: '/api/user/{id}/update',
    url: (_w, target) => `/api/user/${target}/update`,
    prepare: freshMember,
    body: () => ({ name: 'Renamed Person', email: `renamed-${Math.random()}@alpha.test`, locale: 'en-us' }),
    expect: inAlpha(200),
  },
  // Turning off someone's two-factor: system admins; whoever else sees the person gets 403. The system admin
  // then needs their own two-factor and a code: past the permission, the `422` that asks for it.
  {
    method: 'POST',
    path: '/api/user/{id}/mfa/reset',
    url: (_w, target) => `/api/user/${target}/mfa/reset`,
    prepare: freshMember,
    expect: systemAdminOnly(422),
  },
  {
    method: 'GET',
    path: '/api/user/{id}/edit-rights',
    url: (_w, target) => `/api/user/${target}/edit-rights`,
    prepare: freshMember,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/user/{id}/update/role',
    url: (_w, target) => `/api/user/${target}/update/role`,
    prepare: freshMember,
    body: (w) => ({ role: 'organization_admin', organizationId: w.orgs.schoolA }),
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/user/update/licenses',
    url: () => '/api/user/update/licenses',
    body: (w) => ({ userIds: [w.users.admin.id], licenseId: w.alphaLicenseId, organizationId: w.orgs.alpha }),
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/user/remove',
    url: () => '/api/user/remove',
    prepare: freshMember,
    body: () => ({ organizationId: lastMember.organizationId, userIds: [lastMember.userId] }),
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/organization/{id}/users/{userId}/invitation/resend',
    url: (w, target) => `/api/organization/${w.orgs.schoolA}/users/${target}/invitation/resend`,
    prepare: freshPending,
    expect: inAlpha(200),
  },
  {
    // An admin acts on nobody above its own role: the invitation to own the school is not theirs to send.
    method: 'POST',
    path: '/api/organization/{id}/users/{userId}/invitation/resend',
    url: (w, target) => `/api/organization/${w.orgs.schoolA}/users/${target}/invitation/resend`,
    prepare: freshOwnerInvitation,
    expect: inAlpha(200, 403),
  },
  {
    method: 'POST',
    path: '/api/user/bulk/preview',
    url: () => '/api/user/bulk/preview',
    body: (w) => ({
      organizationId: w.orgs.schoolA,
      users: [{ email: 'p@alpha.test', name: 'P', role: 'user' }],
    }),
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/user/bulk',
    url: () => '/api/user/bulk',
    body: (w, userId) => ({
      organizationId: w.orgs.schoolA,
      users: [{ email: `bulk-${userId ?? 'anonymous'}@alpha.test`, name: 'Bulk', role: 'user' }],
    }),
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/credit/transfer/pools',
    url: () => '/api/credit/transfer/pools',
    body: (w) => move({ organizationId: w.orgs.schoolA, fromPool: 'shared', toPool: 'protected' }),
    prepare: fundedSchool,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/credit/assign/organizations',
    url: () => '/api/credit/assign/organizations',
    body: (w) =>
      move({
        sourceOrganizationId: w.orgs.schoolA,
        fromOrganizationPoolType: 'shared',
        targetOrganizationIds: [w.orgs.annex],
        toOrganizationPoolType: 'shared',
      }),
    prepare: fundedSchool,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/credit/reclaim/organizations',
    url: () => '/api/credit/reclaim/organizations',
    body: (w) =>
      move({
        sourceOrganizationIds: [w.orgs.schoolA],
        reclaimFromStrategy: 'shared_first',
        targetOrganizationId: w.orgs.alpha,
        toOrganizationPoolType: 'protected',
      }),
    prepare: fundedSchool,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/credit/transfer/organizations',
    url: () => '/api/credit/transfer/organizations',
    body: (w) =>
      move({
        sourceOrganizationId: w.orgs.schoolA,
        fromOrganizationPoolType: 'shared',
        targetOrganizationId: w.orgs.schoolB,
        toOrganizationPoolType: 'shared',
      }),
    prepare: fundedSchool,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/credit/assign/users',
    url: () => '/api/credit/assign/users',
    body: () =>
      move({
        userIds: [lastMember.userId],
        organizationId: lastMember.organizationId,
        fromOrganizationPoolType: 'shared',
      }),
    prepare: async (t) => {
      await fundedSchool(t);
      return freshMember(t);
    },
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/credit/reclaim/users',
    url: () => '/api/credit/reclaim/users',
    body: () =>
      move({
        userIds: [lastMember.userId],
        organizationId: lastMember.organizationId,
        toOrganizationPoolType: 'shared',
      }),
    prepare: fundedMember,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/credit/transfer/users',
    url: () => '/api/credit/transfer/users',
    body: (w) => move({ sourceUserId: lastMember.userId, targetUserId: w.users.teacher.id }),
    prepare: fundedMember,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/credit/allocate/system',
    url: () => '/api/credit/allocate/system',
    body: (w) => move({ organizationId: w.orgs.schoolA, toPool: 'shared', description: 'Top-up' }),
    expect: { systemAdmin: 200, owner: 403, admin: 403, teacher: 404, none: 401, unrelated: 404 },
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/credit-log',
    url: (w) => `/api/organization/${w.orgs.schoolA}/credit-log`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/credit-usage',
    url: (w) => `/api/organization/${w.orgs.schoolA}/credit-usage?days=30`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/credit-log/export',
    url: (w) => `/api/organization/${w.orgs.schoolA}/credit-log/export`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/audit-log',
    url: (w) => `/api/organization/${w.orgs.schoolA}/audit-log`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/audit-log/export',
    url: (w) => `/api/organization/${w.orgs.schoolA}/audit-log/export`,
    expect: inAlpha(200),
  },
  // Low-balance alerts and seat use (CONTRACT §10; decision 014): `view_audit_logs`.
  {
    method: 'GET',
    path: '/api/organization/{id}/credit-alerts',
    url: (w) => `/api/organization/${w.orgs.schoolA}/credit-alerts`,
    expect: inAlpha(200),
  },
  {
    method: 'PUT',
    path: '/api/organization/{id}/credit-alerts',
    url: (w) => `/api/organization/${w.orgs.schoolA}/credit-alerts`,
    body: () => ({ thresholds: [{ kind: 'percent_of_last_topup', value: 10 }] }),
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/license-usage',
    url: (w) => `/api/organization/${w.orgs.schoolA}/license-usage?days=30`,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/license/create',
    url: () => '/api/license/create',
    body: () => ({ organizationId: lastLeaf, licenseType: 'chorus', expireAt: '2031-01-01', maxUsers: 5 }),
    prepare: async (t) => {
      lastLeaf = await freshLeaf(t);
      return lastLeaf;
    },
    expect: systemAdminOnly(201),
  },
  {
    method: 'POST',
    path: '/api/license/{id}/update',
    url: (_w, licence) => `/api/license/${licence}/update`,
    body: () => ({ expireAt: '2032-01-01', maxUsers: 6 }),
    prepare: licensedLeaf,
    expect: systemAdminOnly(200),
  },
  {
    method: 'DELETE',
    path: '/api/license/{id}/delete',
    url: (_w, licence) => `/api/license/${licence}/delete`,
    prepare: licensedLeaf,
    expect: systemAdminOnly(200),
  },
  {
    method: 'POST',
    path: '/api/license/assign/organizations',
    url: () => '/api/license/assign/organizations',
    body: (w) => ({
      sourceOrganizationId: w.orgs.alpha,
      targetOrganizationIds: [lastLeaf],
      licenses: [{ type: 'chorus', amount: 1 }],
    }),
    prepare: async (t) => {
      lastLeaf = await freshLeaf(t);
      return lastLeaf;
    },
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/license/reclaim/organizations',
    url: () => '/api/license/reclaim/organizations',
    body: (w) => ({
      sourceOrganizationIds: [lastLeaf],
      targetOrganizationId: w.orgs.alpha,
      licenses: [{ type: 'chorus', amount: 1 }],
    }),
    prepare: licensedLeaf,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/license-log',
    url: (w) => `/api/organization/${w.orgs.schoolA}/license-log`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/invoice/products',
    url: () => '/api/invoice/products',
    expect: { ...all(200), none: 401 },
  },
  {
    method: 'PUT',
    path: '/api/invoice/products',
    url: () => '/api/invoice/products',
    body: () => SEEDED_PRICES,
    expect: { ...all(403), systemAdmin: 200, none: 401 },
  },
  {
    method: 'POST',
    path: '/api/invoice/create',
    url: () => '/api/invoice/create',
    body: (w) => ({
      organizationId: w.orgs.schoolA,
      kind: 'credits',
      credits: 1000,
      customerEmail: 'pay@alpha.test',
    }),
    // CONTRACT §7: invoice creation answers 403 where other calls answer 404 (an organization not seen).
    expect: { ...inAlpha(201), teacher: 403, unrelated: 403 },
  },
  {
    method: 'GET',
    path: '/api/mail/outbox',
    url: () => '/api/mail/outbox',
    // What this installation mailed, codes included: system admins only (issue 33).
    expect: { ...all(403), systemAdmin: 200, none: 401 },
  },
  {
    method: 'GET',
    path: '/api/mail/delivery',
    url: () => '/api/mail/delivery',
    // Whether mail goes out at all (issue 33): every screen that says a mail was sent asks, signed in or not.
    expect: all(200),
  },
  {
    method: 'GET',
    path: '/api/invoices',
    url: () => '/api/invoices',
    // The billing queue (CONTRACT §7): every organization's invoices, system admins only.
    expect: { ...all(403), systemAdmin: 200, none: 401 },
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/invoices',
    url: (w) => `/api/organization/${w.orgs.schoolA}/invoices`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/invoice/{id}',
    url: (_w, invoice) => `/api/invoice/${invoice}`,
    prepare: openInvoice,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/invoice/{id}/fulfil',
    url: (_w, invoice) => `/api/invoice/${invoice}/fulfil`,
    body: () => ({ method: 'payment' }),
    prepare: openInvoice,
    expect: systemAdminOnly(200),
  },
  {
    method: 'POST',
    path: '/api/invoice/{id}/void',
    url: (_w, invoice) => `/api/invoice/${invoice}/void`,
    prepare: openInvoice,
    expect: systemAdminOnly(200),
  },
  // Requests up the tree (CONTRACT §11, decision 017): a new leaf under Alpha School A asks the school.
  {
    method: 'POST',
    path: '/api/organization/{id}/requests',
    url: (_w, leaf) => `/api/organization/${leaf}/requests`,
    body: () => ({ kind: 'credits', amount: 1 }),
    prepare: freshLeaf,
    expect: inAlpha(201),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/requests',
    url: (w) => `/api/organization/${w.orgs.schoolA}/requests?direction=incoming`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/above',
    url: (w) => `/api/organization/${w.orgs.schoolA}/above`,
    expect: inAlpha(200),
  },
  {
    method: 'GET',
    path: '/api/request/{id}',
    url: (_w, request) => `/api/request/${request}`,
    prepare: openRequest,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/request/{id}/approve',
    url: (_w, request) => `/api/request/${request}/approve`,
    body: () => ({}),
    prepare: openRequest,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/request/{id}/decline',
    url: (_w, request) => `/api/request/${request}/decline`,
    body: () => ({ reason: 'Not this term.' }),
    prepare: openRequest,
    expect: inAlpha(200),
  },
  {
    method: 'POST',
    path: '/api/request/{id}/cancel',
    url: (_w, request) => `/api/request/${request}/cancel`,
    prepare: openRequest,
    expect: inAlpha(200),
  },
  // Integration keys and the daily limit: `manage_org_integration`, an owner's and not an admin's.
  {
    method: 'GET',
    path: '/api/organization/{id}/integration-keys',
    url: (w) => `/api/organization/${w.orgs.schoolA}/integration-keys`,
    expect: inAlpha(200, 403),
  },
  {
    method: 'POST',
    path: '/api/organization/{id}/integration-keys',
    url: (w) => `/api/organization/${w.orgs.schoolA}/integration-keys`,
    body: () => ({ name: 'Classroom' }),
    expect: inAlpha(201, 403),
  },
  {
    method: 'DELETE',
    path: '/api/organization/{id}/integration-keys/{keyId}',
    url: (w, key) => `/api/organization/${w.orgs.schoolA}/integration-keys/${key}`,
    prepare: freshKey,
    expect: inAlpha(200, 403),
  },
  {
    method: 'GET',
    path: '/api/organization/{id}/integration-settings',
    url: (w) => `/api/organization/${w.orgs.schoolA}/integration-settings`,
    expect: inAlpha(200, 403),
  },
  {
    method: 'POST',
    path: '/api/organization/{id}/integration-settings',
    url: (w) => `/api/organization/${w.orgs.schoolA}/integration-settings`,
    body: () => ({ dailyConsumptionLimit: 5000 }),
    expect: inAlpha(200, 403),
  },
  // The panel's form of the entitlement check ("Why can't this teacher use it?"): `manage_users`.
  {
    method: 'GET',
    path: '/api/organization/{id}/users/{userId}/entitlement',
    url: (w) => `/api/organization/${w.orgs.schoolA}/users/${w.users.teacher.id}/entitlement`,
    expect: inAlpha(200),
  },
  // The classroom product's calls take an integration key: a session is `401` (keys: the block below).
  {
    method: 'GET',
    path: '/api/integration/entitlement',
    url: (w) => `/api/integration/entitlement?email=${encodeURIComponent(w.users.teacher.email)}`,
    expect: keyCall,
  },
  {
    method: 'POST',
    path: '/api/integration/consume',
    url: () => '/api/integration/consume',
    body: (w) => ({ email: w.users.teacher.email, credits: 1, reference: 'matrix' }),
    expect: keyCall,
  },
  {
    method: 'POST',
    path: '/api/integration/consume/batch',
    url: () => '/api/integration/consume/batch',
    body: (w) => ({ items: [{ email: w.users.teacher.email, credits: 1, reference: 'matrix' }] }),
    expect: keyCall,
  },
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function actorUserId(actor: Actor): string | null {
  const u = t.world.users;
  const byActor: Record<Actor, string | null> = {
    systemAdmin: u.systemAdmin.id,
    owner: u.owner.id,
    admin: u.admin.id,
    teacher: u.teacher.id,
    unrelated: u.betaOwner.id,
    none: null,
  };
  return byActor[actor];
}

describe('authorization matrix', () => {
  for (const row of MATRIX) {
    for (const actor of ACTORS) {
      it(`${row.method} ${row.path} as ${actor} → ${row.expect[actor]}`, async () => {
        const userId = actorUserId(actor);
        // A fresh session per call: a teacher's token can only be made this way (sign in refuses them).
        const headers = userId ? bearer(await sessionFor(t.db, userId)) : {};
        const target = row.prepare ? await row.prepare(t) : '';
        const response = await t.app.inject({
          method: row.method,
          url: row.url(t.world, target),
          headers,
          ...(row.body ? { payload: row.body(t.world, userId) as object } : {}),
        });
        expect(response.statusCode).toBe(row.expect[actor]);
        if (response.statusCode >= 400) {
          expect(response.json()).toEqual({ error: expect.any(String), message: expect.any(String) });
        }
      });
    }
  }

  it('covers every endpoint of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const covered = new Set(MATRIX.map((r) => `${r.method} ${r.path}`));
    expect(documented.filter((e) => !covered.has(e))).toEqual([]);
    // And no row names a call the document does not have (a path may have several rows: several cases).
    expect([...covered].filter((e) => !documented.includes(e))).toEqual([]);
  });
});

/**
 * The classroom product's calls with integration keys (CONTRACT §9): a key acts inside its organization's
 * subtree and on these calls only; a revoked key is refused at once; a session token is no key.
 */
describe('authorization matrix: integration keys', () => {
  const keys = {} as Record<'alpha' | 'schoolB' | 'beta' | 'revoked', { id: string; key: string }>;
  /** A teacher of Alpha School A with 10 credits of their own. */
  let teacher = { id: '', email: '' };
  beforeAll(async () => {
    keys.alpha = await insertKey(t, t.world.orgs.alpha);
    keys.schoolB = await insertKey(t, t.world.orgs.schoolB);
    keys.beta = await insertKey(t, t.world.orgs.beta);
    keys.revoked = await insertKey(t, t.world.orgs.alpha);
    const id = await fundedMember(t);
    const [row] = await rows<{ email: string }>(t.db, sql`select email from users where id = ${id}`);
    teacher = { id, email: row?.email ?? '' };
  });

  const balance = async () => {
    const [row] = await rows<{ balance: string | number }>(
      t.db,
      sql`select balance from credit_accounts where kind = 'user' and user_id = ${teacher.id}`,
    );
    return Number(row?.balance);
  };
  const entitlement = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'GET',
      url: `/api/integration/entitlement?email=${encodeURIComponent(teacher.email)}`,
      headers,
    });
  const consume = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/integration/consume',
      headers: { ...headers, 'idempotency-key': `matrix-${Math.random()}` },
      payload: { email: teacher.email, credits: 1, reference: 'matrix' },
    });
  const consumeBatch = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/integration/consume/batch',
      headers: { ...headers, 'idempotency-key': `matrix-${Math.random()}` },
      payload: { items: [{ email: teacher.email, credits: 1, reference: 'matrix' }] },
    });
  const notFound = { error: 'not_found', message: 'Not found.' };
  /** How each call answers for a teacher outside the key's subtree: `404`, or a batch's item refused so. */
  const KEY_CALLS = [
    { at: 'GET /api/integration/entitlement', call: entitlement, outside: { status: 404, body: notFound } },
    { at: 'POST /api/integration/consume', call: consume, outside: { status: 404, body: notFound } },
    {
      at: 'POST /api/integration/consume/batch',
      call: consumeBatch,
      outside: {
        status: 200,
        body: {
          results: [
            {
              reference: 'matrix',
              status: 'refused',
              consumed: 0,
              fromOwn: 0,
              fromShared: 0,
              balances: null,
              ...notFound,
            },
          ],
        },
      },
    },
  ];

  it('a key of the teacher’s subtree answers every call', async () => {
    const checked = await entitlement(bearer(keys.alpha.key));
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toMatchObject({ userId: teacher.id, organizationId: t.world.orgs.schoolA });
    const before = await balance();
    const consumed = await consume(bearer(keys.alpha.key));
    expect(consumed.statusCode).toBe(200);
    expect(consumed.json()).toMatchObject({ consumed: 1, fromOwn: 1, fromShared: 0 });
    expect(await balance()).toBe(before - 1);
    const batch = await consumeBatch(bearer(keys.alpha.key));
    expect(batch.statusCode).toBe(200);
    expect(batch.json()).toMatchObject({ results: [{ status: 'consumed', consumed: 1, fromOwn: 1 }] });
    expect(await balance()).toBe(before - 2);
  });

  for (const { at, call, outside } of KEY_CALLS) {
    it(`${at}: a key of another subtree does not find a teacher outside it, and takes nothing`, async () => {
      const before = await balance();
      for (const other of [keys.schoolB, keys.beta]) {
        const response = await call(bearer(other.key));
        expect(response.statusCode).toBe(outside.status);
        expect(response.json()).toEqual(outside.body);
      }
      expect(await balance()).toBe(before);
    });

    it(`${at}: a session token is 401, whoever holds it`, async () => {
      for (const actor of ACTORS) {
        const userId = actorUserId(actor);
        if (!userId) continue;
        const response = await call(bearer(await sessionFor(t.db, userId)));
        expect(response.statusCode, actor).toBe(401);
        expect(response.json(), actor).toEqual({ error: 'unauthorized', message: INTEGRATION_MSG.keyOnly });
      }
    });

    it(`${at}: no token, or a key nobody created, is 401`, async () => {
      expect((await call({})).statusCode).toBe(401);
      const unknown = await call(bearer(`allot_sk_${randomBytes(32).toString('base64url')}`));
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual({ error: 'unauthorized', message: INTEGRATION_MSG.keyRevoked });
    });
  }

  it('a revoked key is refused at once on every call', async () => {
    expect((await entitlement(bearer(keys.revoked.key))).statusCode).toBe(200);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/organization/${t.world.orgs.alpha}/integration-keys/${keys.revoked.id}`,
      headers: bearer(await sessionFor(t.db, t.world.users.owner.id)),
    });
    expect(revoked.json()).toEqual({ success: true });
    const before = await balance();
    for (const { at, call } of KEY_CALLS) {
      const response = await call(bearer(keys.revoked.key));
      expect(response.statusCode, at).toBe(401);
      expect(response.json(), at).toEqual({ error: 'unauthorized', message: INTEGRATION_MSG.keyRevoked });
    }
    expect(await balance()).toBe(before);
  });

  it('a key on any panel call is 401, even one about its own organization', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>();
    // Public: no security (`[]`) or an empty alternative (a token is optional there, a key is no token).
    const isPublic = (row: Row) => {
      const security = doc.paths[row.path]?.[row.method.toLowerCase()]?.security;
      return (
        security !== undefined &&
        (security.length === 0 || security.some((s) => Object.keys(s as object).length === 0))
      );
    };
    const panelRows = MATRIX.filter((row) => !row.path.startsWith('/api/integration/') && !isPublic(row));
    expect(panelRows.length).toBeGreaterThan(40);
    const refusedWith = new Set<string>();
    for (const row of panelRows) {
      const response = await t.app.inject({
        method: row.method,
        // Authentication comes first: an id of nothing stands for what `prepare` would make.
        url: row.url(t.world, randomUUID()),
        headers: bearer(keys.alpha.key),
        ...(row.body ? { payload: row.body(t.world, null) as object } : {}),
      });
      expect(response.statusCode, `${row.method} ${row.path}`).toBe(401);
      refusedWith.add(response.json<{ message: string }>().message);
    }
    expect([...refusedWith]).toEqual([INTEGRATION_MSG.sessionOnly]);
  });
});
