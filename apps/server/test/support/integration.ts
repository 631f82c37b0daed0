import { randomBytes } from 'node:crypto';
import { INTEGRATION_KEY_PREFIX, INTEGRATION_KEY_SHOWN_LENGTH } from '@allot/domain/integration';
import type { LicenseType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import {
  memberAccountId,
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../../src/features/credits/journal';
import { hashIntegrationKey } from '../../src/features/integration/key-auth';
import { insertOrganization } from '../../src/features/organizations/tree';
import { giveLicense } from './world';

/*
 * Fixtures of the integration calls' tests (issue 15): keys, people, memberships, invitations, seats and
 * credits, written straight into the database the way the panel's features write them.
 */

/** An integration key, stored as key management stores one (only its SHA-256). */
export async function insertIntegrationKey(
  db: Tx,
  organizationId: string,
  name = 'Test key',
): Promise<{ id: string; key: string }> {
  const key = `${INTEGRATION_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  const [row] = await rows<{ id: string }>(
    db,
    sql`insert into integration_keys (organization_id, name, prefix, key_hash)
        values (${organizationId}, ${name}, ${key.slice(0, INTEGRATION_KEY_SHOWN_LENGTH)}, ${hashIntegrationKey(key)})
        returning id`,
  );
  if (!row) throw new Error('integration key insert failed');
  return { id: row.id, key };
}

export function createSchool(db: Tx, name: string, parentId: string): Promise<string> {
  return insertOrganization(db, { name, type: 'school', phoneNumber: '+1 555 000 2222', parentId });
}

export async function createPerson(
  db: Tx,
  email: string,
  options: { verified?: boolean } = {},
): Promise<{ id: string; email: string }> {
  const [row] = await rows<{ id: string }>(
    db,
    sql`insert into users (email, name, email_verified_at)
        values (${email}, ${email.split('@')[0]}, ${options.verified === false ? null : sql`now()`}) returning id`,
  );
  if (!row) throw new Error('user insert failed');
  return { id: row.id, email };
}

/** A membership (role `user`), holding a seat of `licenseId` when given. */
export async function join(db: Tx, userId: string, organizationId: string, licenseId: string | null = null) {
  await db.execute(
    sql`insert into memberships (user_id, organization_id, role, license_id)
        values (${userId}, ${organizationId}, 'user', ${licenseId})`,
  );
}

/** A pending invitation (role `user`), holding a seat of `licenseId` for the invitee when given. */
export async function invite(
  db: Tx,
  userId: string,
  organizationId: string,
  licenseId: string | null = null,
) {
  await db.execute(
    sql`insert into membership_invitations (user_id, organization_id, role, license_id, invited_name, invited_email)
        select ${userId}, ${organizationId}, 'user', ${licenseId}, name, email from users where id = ${userId}`,
  );
}

/** A licence of an organization; `expired`: its expiry a day ago. */
export async function licence(db: Tx, organizationId: string, type: LicenseType = 'chorus', expired = false) {
  const expireAt = new Date(Date.now() + (expired ? -1 : 365) * 24 * 3600 * 1000).toISOString();
  return (await giveLicense(db, organizationId, type, 10, expireAt)).id;
}

/**
 * Mints credits into a person's balance in an organization (by default the one organization they are a member
 * of) or into an organization's shared pool, through the journal.
 */
export async function mint(
  db: Tx,
  to: { userId: string; organizationId?: string } | { sharedOf: string },
  amount: number,
) {
  const account =
    'userId' in to
      ? await memberAccountId(db, to.userId, to.organizationId ?? (await onlyOrganizationOf(db, to.userId)))
      : await organizationPoolAccountId(db, to.sharedOf, 'shared');
  await postCreditTransaction(db, {
    action: 'system_allocation',
    actorId: null,
    description: 'Test credits',
    lines: [
      { accountId: await systemAccountId(db), amount: -amount },
      { accountId: account, amount },
    ],
  });
}

/** The balances as the database holds them: a person's own (0 without an account) and a shared pool. */
export async function balances(db: Tx, userId: string, organizationId: string) {
  const [row] = await rows<{ own: string; shared: string }>(
    db,
    sql`select coalesce((select balance from credit_accounts where user_id = ${userId}), 0)::text as own,
          (select balance from credit_accounts where organization_id = ${organizationId} and kind = 'shared')::text as shared`,
  );
  return { own: Number(row?.own), shared: Number(row?.shared) };
}

/** What the organization consumed today (UTC): the sum of its daily count's slots (decision 016). */
export async function consumedToday(db: Tx, organizationId: string) {
  const [row] = await rows<{ credits: string }>(
    db,
    sql`select sum(credits)::text as credits from consumption_days
        where organization_id = ${organizationId} and day = (now() at time zone 'utc')::date`,
  );
  return Number(row?.credits ?? 0);
}

/** The one organization a person is a member of (a test's shorthand; several or none fail the test). */
export async function onlyOrganizationOf(db: Tx, userId: string): Promise<string> {
  const found = await rows<{ organization_id: string }>(
    db,
    sql`select organization_id from memberships where user_id = ${userId}`,
  );
  if (found.length !== 1) throw new Error(`${userId} is a member of ${found.length} organizations: name one`);
  return (found[0] as { organization_id: string }).organization_id;
}
