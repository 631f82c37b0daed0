import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client';
import { rows } from '../../apps/server/src/db/rows';
import { writeTransaction } from '../../apps/server/src/db/transaction';
import {
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../../apps/server/src/features/credits/journal';
import { createLicense } from '../../apps/server/src/features/licenses/administer-licenses';
import { insertOrganization } from '../../apps/server/src/features/organizations/tree';

export interface Teacher {
  email: string;
  /** Index of the teacher's school in `schoolIds`. */
  school: number;
}

export interface SeededDistrict {
  districtId: string;
  schoolIds: string[];
  /** The district's owner (verified): sessions for the panel's calls. */
  ownerId: string;
  teachers: Teacher[];
}

/**
 * One district and its schools, as the classroom product sees a network: each school's shared pool holds
 * `poolCredits` (minted in one balanced journal transaction), and `teachersPerSchool` verified teachers, each a
 * member (role `user`) holding a seat of the school's live `tle_teacher` licence, with no credits of their own.
 * Through the app's own code where it has some (organizations and their ancestry, the journal, licences);
 * accounts and memberships in SQL, as the member import writes them (features/users/add-members.ts).
 */
export async function seedDistrict(
  db: Db,
  options: { schools: number; teachersPerSchool: number; poolCredits: number },
): Promise<SeededDistrict> {
  const { schools, teachersPerSchool, poolCredits } = options;
  const { districtId, schoolIds } = await db.transaction(async (tx) => {
    const org = (name: string, parentId: string | null) =>
      insertOrganization(tx, {
        name,
        type: parentId ? 'school' : 'district',
        phoneNumber: '+1 555 000 0000',
        parentId,
      });
    const district = await org('Bench District', null);
    const ids: string[] = [];
    for (let i = 0; i < schools; i++) ids.push(await org(`Bench School ${i + 1}`, district));
    const lines = [];
    for (const id of ids) {
      lines.push({ accountId: await organizationPoolAccountId(tx, id, 'shared'), amount: poolCredits });
    }
    lines.push({ accountId: await systemAccountId(tx), amount: -poolCredits * schools });
    await postCreditTransaction(tx, {
      action: 'system_allocation',
      actorId: null,
      description: 'Bench',
      lines,
    });
    return { districtId: district, schoolIds: ids };
  });

  const [owner, admin] = await rows<{ id: string; email: string; name: string }>(
    db,
    sql`insert into users (email, name, email_verified_at, is_system_admin)
        values ('owner@bench.test', 'Bench Owner', now(), false), ('admin@bench.test', 'Bench Admin', now(), true)
        returning id, email, name`,
  );
  if (!owner || !admin) throw new Error('the bench accounts were not created');
  await db.execute(
    sql`insert into memberships (user_id, organization_id, role) values (${owner.id}, ${districtId}, 'organization_owner')`,
  );
  const systemAdmin = {
    sessionId: '',
    userId: admin.id,
    email: admin.email,
    name: admin.name,
    isSystemAdmin: true,
  };
  const expireAt = new Date(Date.now() + 365 * 86_400_000).toISOString();
  const licenceIds: string[] = [];
  for (const organizationId of schoolIds) {
    const licence = await writeTransaction(db, (tx) =>
      createLicense(tx, systemAdmin, {
        organizationId,
        licenseType: 'tle_teacher',
        expireAt,
        maxUsers: teachersPerSchool,
      }),
    );
    licenceIds.push(licence.id);
  }

  const teachers: Teacher[] = [];
  for (let school = 0; school < schools; school++) {
    for (let k = 1; k <= teachersPerSchool; k++)
      teachers.push({ email: `teacher${school + 1}-${k}@bench.test`, school });
  }
  await db.transaction(async (tx) => {
    const created = await rows<{ id: string; email: string }>(
      tx,
      sql`insert into users (email, name, email_verified_at)
          select email, 'Bench Teacher ' || n, now() from unnest(${`{${teachers.map((t) => t.email).join(',')}}`}::text[])
            with ordinality as t(email, n)
          returning id, email`,
    );
    const idOf = new Map(created.map((c) => [c.email, c.id]));
    await tx.execute(sql`insert into memberships (user_id, organization_id, role, license_id)
      select user_id, organization_id, 'user', license_id
      from unnest(${`{${teachers.map((t) => idOf.get(t.email)).join(',')}}`}::uuid[],
        ${`{${teachers.map((t) => schoolIds[t.school]).join(',')}}`}::uuid[],
        ${`{${teachers.map((t) => licenceIds[t.school]).join(',')}}`}::uuid[]) as m(user_id, organization_id, license_id)`);
  });
  await db.execute(sql`vacuum analyze`);
  return { districtId, schoolIds, ownerId: owner.id, teachers };
}
