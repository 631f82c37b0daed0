import { randomUUID } from 'node:crypto';
import type { LicenseType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import { hashPassword } from '../../src/features/auth/passwords';
import { createSession } from '../../src/features/auth/sessions';
import {
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../../src/features/credits/journal';
import { openLicense } from '../../src/features/licenses/ledger';
import { insertOrganization } from '../../src/features/organizations/tree';

export const PASSWORD = 'correct-horse-battery';

/**
 * A small world for API tests:
 *   Alpha District (owner, admin) ─┬─ Alpha School A (schoolAdmin, teacher) ── Alpha Annex
 *                                  └─ Alpha School B
 *   Beta Network (betaOwner): an unrelated tenant.
 */
export async function createWorld(db: Db) {
  const passwordHash = await hashPassword(PASSWORD);
  return db.transaction(async (tx) => {
    const org = (name: string, parentId: string | null) => insertTestOrganization(tx, name, parentId);
    const alpha = await org('Alpha District', null);
    const schoolA = await org('Alpha School A', alpha);
    const annex = await org('Alpha Annex', schoolA);
    const schoolB = await org('Alpha School B', alpha);
    const beta = await org('Beta Network', null);

    const user = (email: string, name: string, extra: { systemAdmin?: boolean; verified?: boolean } = {}) =>
      insertTestUser(tx, email, name, passwordHash, extra);
    const member = (userId: string, organizationId: string, role: string) =>
      addTestMember(tx, userId, organizationId, role);

    const users = {
      systemAdmin: await user('sys@allot.test', 'Sam System', { systemAdmin: true }),
      owner: await user('owner@alpha.test', 'Olga Owner'),
      admin: await user('admin@alpha.test', 'Ada Admin'),
      schoolAdmin: await user('admin@school-a.test', 'Sid School'),
      teacher: await user('teacher@school-a.test', 'Tia Teacher'),
      unverified: await user('new@alpha.test', 'Nia New', { verified: false }),
      betaOwner: await user('owner@beta.test', 'Bo Beta'),
    };
    await member(users.owner.id, alpha, 'organization_owner');
    await member(users.admin.id, alpha, 'organization_admin');
    await member(users.schoolAdmin.id, schoolA, 'organization_admin');
    await member(users.teacher.id, schoolA, 'user');
    await member(users.unverified.id, alpha, 'organization_admin');
    await member(users.betaOwner.id, beta, 'organization_owner');

    await giveCredits(tx, alpha, { shared: 500, protected: 200 }, users.systemAdmin.id);
    const licence = await giveLicense(tx, alpha, 'chorus', 25, '2030-01-01T00:00:00Z');

    return { orgs: { alpha, schoolA, annex, schoolB, beta }, users, alphaLicenseId: licence.id };
  });
}

export type World = Awaited<ReturnType<typeof createWorld>>;

function insertTestOrganization(tx: Tx, name: string, parentId: string | null) {
  return insertOrganization(tx, {
    name,
    type: parentId ? 'school' : 'district',
    phoneNumber: '+1 555 000 1111',
    parentId,
  });
}

async function insertTestUser(
  tx: Tx,
  email: string,
  name: string,
  passwordHash: string | null,
  extra: { systemAdmin?: boolean; verified?: boolean } = {},
) {
  const [row] = await rows<{ id: string }>(
    tx,
    sql`insert into users (email, name, password_hash, is_system_admin, email_verified_at)
        values (${email}, ${name}, ${passwordHash}, ${extra.systemAdmin ?? false},
          ${extra.verified === false ? null : sql`now()`}) returning id`,
  );
  if (!row) throw new Error('user insert failed');
  return { id: row.id, email, name };
}

function addTestMember(tx: Tx, userId: string, organizationId: string, role: string) {
  return tx.execute(
    sql`insert into memberships (user_id, organization_id, role) values (${userId}, ${organizationId}, ${role})`,
  );
}

/**
 * Another Alpha District in the same database: the world's tree below it, with the same names, and its four
 * people (own addresses, no password: sign them in with `sessionFor`), holding 500 shared and 200 protected
 * from one allocation by `actorId`. For a test that needs balances and members no earlier test touched,
 * without a database of its own.
 */
export async function createAlphaCopy(db: Db, actorId: string | null = null) {
  const tag = randomUUID().slice(0, 8);
  return db.transaction(async (tx) => {
    const alpha = await insertTestOrganization(tx, 'Alpha District', null);
    const schoolA = await insertTestOrganization(tx, 'Alpha School A', alpha);
    const annex = await insertTestOrganization(tx, 'Alpha Annex', schoolA);
    const schoolB = await insertTestOrganization(tx, 'Alpha School B', alpha);
    const user = (local: string, domain: string, name: string) =>
      insertTestUser(tx, `${local}+${tag}@${domain}`, name, null);
    const users = {
      owner: await user('owner', 'alpha.test', 'Olga Owner'),
      admin: await user('admin', 'alpha.test', 'Ada Admin'),
      schoolAdmin: await user('admin', 'school-a.test', 'Sid School'),
      teacher: await user('teacher', 'school-a.test', 'Tia Teacher'),
    };
    await addTestMember(tx, users.owner.id, alpha, 'organization_owner');
    await addTestMember(tx, users.admin.id, alpha, 'organization_admin');
    await addTestMember(tx, users.schoolAdmin.id, schoolA, 'organization_admin');
    await addTestMember(tx, users.teacher.id, schoolA, 'user');
    await giveCredits(tx, alpha, { shared: 500, protected: 200 }, actorId);
    return { orgs: { alpha, schoolA, annex, schoolB }, users };
  });
}

/** A session made directly: lets tests hold a teacher's token, which sign in never hands out. */
export function sessionFor(db: Db, userId: string, opened = { usedMfa: false, maxDays: 30 }) {
  return createSession(db, userId, opened);
}

/** A licence for a test, written as the system admin writes one: with its log entry (decision 009). */
export async function giveLicense(
  db: Tx,
  organizationId: string,
  licenseType: LicenseType,
  seats: number,
  expireAt: string = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString(),
) {
  const licence = await openLicense(
    db,
    { organizationId, licenseType, expireAt, seats },
    { action: 'created', description: 'Test licence', actorId: null },
  );
  if (!licence) throw new Error(`${organizationId} already has a ${licenseType} licence`);
  return licence;
}

/**
 * Credits minted into an organization's pools, as one system allocation in the journal (no description): the
 * balances a test starts from, without the API calls that would make them.
 */
export async function giveCredits(
  db: Tx,
  organizationId: string,
  credits: { shared?: number; protected?: number },
  actorId: string | null = null,
) {
  const shared = credits.shared ?? 0;
  const protectedCredits = credits.protected ?? 0;
  await postCreditTransaction(db, {
    action: 'system_allocation',
    actorId,
    lines: [
      { accountId: await systemAccountId(db), amount: -(shared + protectedCredits) },
      { accountId: await organizationPoolAccountId(db, organizationId, 'shared'), amount: shared },
      {
        accountId: await organizationPoolAccountId(db, organizationId, 'protected'),
        amount: protectedCredits,
      },
    ],
  });
}
