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
    const org = async (name: string, parentId: string | null) =>
      insertOrganization(tx, {
        name,
        type: parentId ? 'school' : 'district',
        phoneNumber: '+1 555 000 1111',
        parentId,
      });
    const alpha = await org('Alpha District', null);
    const schoolA = await org('Alpha School A', alpha);
    const annex = await org('Alpha Annex', schoolA);
    const schoolB = await org('Alpha School B', alpha);
    const beta = await org('Beta Network', null);

    const user = async (
      email: string,
      name: string,
      extra: { systemAdmin?: boolean; verified?: boolean } = {},
    ) => {
      const [row] = await rows<{ id: string }>(
        tx,
        sql`insert into users (email, name, password_hash, is_system_admin, email_verified_at)
            values (${email}, ${name}, ${passwordHash}, ${extra.systemAdmin ?? false},
              ${extra.verified === false ? null : sql`now()`}) returning id`,
      );
      if (!row) throw new Error('user insert failed');
      return { id: row.id, email, name };
    };
    const member = (userId: string, organizationId: string, role: string) =>
      tx.execute(
        sql`insert into memberships (user_id, organization_id, role) values (${userId}, ${organizationId}, ${role})`,
      );

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

    const system = await systemAccountId(tx);
    await postCreditTransaction(tx, {
      action: 'system_allocation',
      actorId: users.systemAdmin.id,
      lines: [
        { accountId: system, amount: -700 },
        { accountId: await organizationPoolAccountId(tx, alpha, 'shared'), amount: 500 },
        { accountId: await organizationPoolAccountId(tx, alpha, 'protected'), amount: 200 },
      ],
    });
    const licence = await giveLicense(tx, alpha, 'chorus', 25, '2030-01-01T00:00:00Z');

    return { orgs: { alpha, schoolA, annex, schoolB, beta }, users, alphaLicenseId: licence.id };
  });
}

export type World = Awaited<ReturnType<typeof createWorld>>;

/** A session made directly: lets tests hold a teacher's token, which sign in never hands out. */
export function sessionFor(db: Db, userId: string) {
  return createSession(db, userId);
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
