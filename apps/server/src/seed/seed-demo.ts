import type { LicenseType, OrganizationType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/rows';
import { hashPassword } from '../features/auth/passwords';
import {
  memberAccountId,
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../features/credits/journal';
import { rollUpCreditUsage } from '../features/insights/usage-rollup';
import { openLicense } from '../features/licenses/ledger';
import { insertOrganization } from '../features/organizations/tree';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_ROOT } from './demo-accounts';
import { seedDemoAudit } from './seed-demo-audit';
import { demoStartDate, seedDemoHistory } from './seed-demo-history';

const inAYear = () => new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();

interface DemoOrg {
  name: string;
  type: OrganizationType;
  phone: string;
  parent: string | null;
  licenses: { type: LicenseType; seats: number }[];
  credits: { shared: number; protected: number };
}

const ORGS: DemoOrg[] = [
  {
    name: DEMO_ROOT,
    type: 'district',
    phone: '+1 555-010-2000',
    parent: null,
    licenses: [
      { type: 'chorus', seats: 40 },
      { type: 'tle_teacher', seats: 20 },
    ],
    credits: { shared: 5_000, protected: 20_000 },
  },
  {
    name: 'Northside Elementary',
    type: 'school',
    phone: '+1 555-010-2100',
    parent: DEMO_ROOT,
    licenses: [{ type: 'chorus', seats: 10 }],
    credits: { shared: 1_500, protected: 500 },
  },
  {
    name: 'Northside Annex',
    type: 'school',
    phone: '+1 555-010-2150',
    parent: 'Northside Elementary',
    licenses: [{ type: 'chorus', seats: 3 }],
    credits: { shared: 300, protected: 0 },
  },
  {
    name: 'Lakeside Middle',
    type: 'school',
    phone: '+1 555-010-2200',
    parent: DEMO_ROOT,
    licenses: [{ type: 'tle_teacher', seats: 5 }],
    credits: { shared: 1_000, protected: 250 },
  },
  {
    name: 'Hillcrest High',
    type: 'school',
    phone: '+1 555-010-2300',
    parent: DEMO_ROOT,
    licenses: [],
    credits: { shared: 750, protected: 0 },
  },
];

const TEACHER_CREDITS = 40;

/** Loads the demo hierarchy once; answers false when it is already there. */
export async function seedDemo(db: Db): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const created = await db.transaction(async (tx) => {
    const existing = await rows(
      tx,
      sql`select 1 from organizations where name = ${DEMO_ROOT} and parent_id is null`,
    );
    if (existing.length > 0) return false;

    const system = await systemAccountId(tx);
    const ids = new Map<string, string>();
    for (const org of ORGS) {
      const parentId = org.parent ? (ids.get(org.parent) ?? null) : null;
      const id = await insertOrganization(tx, {
        name: org.name,
        type: org.type,
        phoneNumber: org.phone,
        parentId,
      });
      ids.set(org.name, id);
      await mintInto(tx, system, id, org.credits);
      for (const license of org.licenses) {
        await openLicense(
          tx,
          { organizationId: id, licenseType: license.type, expireAt: inAYear(), seats: license.seats },
          { action: 'created', description: 'Demo data', actorId: null },
        );
      }
    }

    for (const account of DEMO_ACCOUNTS) {
      const organizationId = ids.get(account.organization);
      if (!organizationId) throw new Error(`demo organization ${account.organization} missing`);
      const [user] = await rows<{ id: string }>(
        tx,
        sql`insert into users (email, name, password_hash, email_verified_at)
            values (${account.email}, ${account.name}, ${passwordHash},
              ${account.verified === false ? null : sql`now()`}) returning id`,
      );
      if (!user) throw new Error('demo user insert returned no row');
      // Teachers take a seat of their school's first licence, when it has one.
      await tx.execute(sql`
        insert into memberships (user_id, organization_id, role, license_id)
        values (${user.id}, ${organizationId}, ${account.role},
          ${account.role === 'user' ? sql`(select id from licenses where organization_id = ${organizationId} order by license_type limit 1)` : null})`);
      if (account.role === 'user') {
        const shared = await organizationPoolAccountId(tx, organizationId, 'shared');
        await postCreditTransaction(tx, {
          action: 'assign_users',
          actorId: null,
          description: 'Demo data: starting credits',
          createdAt: demoStartDate(),
          lines: [
            { accountId: shared, amount: -TEACHER_CREDITS },
            { accountId: await memberAccountId(tx, user.id, organizationId), amount: TEACHER_CREDITS },
          ],
        });
      }
    }
    await seedDemoHistory(tx, ids);
    await seedDemoAudit(tx, ids);
    return true;
  });
  // The history's days and the forecast are read from the roll-up: done now, not 5 seconds after start.
  if (created) await rollUpCreditUsage(db);
  return created;
}

async function mintInto(tx: Tx, system: string, organizationId: string, credits: DemoOrg['credits']) {
  for (const pool of ['shared', 'protected'] as const) {
    if (credits[pool] === 0) continue;
    await postCreditTransaction(tx, {
      action: 'system_allocation',
      actorId: null,
      description: 'Demo data: starting credits',
      createdAt: demoStartDate(),
      lines: [
        { accountId: system, amount: -credits[pool] },
        { accountId: await organizationPoolAccountId(tx, organizationId, pool), amount: credits[pool] },
      ],
    });
  }
}
