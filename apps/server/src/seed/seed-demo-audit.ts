import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { rows } from '../db/rows';
import { type AuditRecord, recordAudit } from '../features/audit/record';
import { dayOf } from './seed-demo-history';

/**
 * A week of the demo's audit log (decision 014, "Demo data"): changes whose end state is the demo as seeded,
 * so the log tells a true story. Adam Reyes, an admin of the district, made Omar Haddad and Leo Novak admins of
 * their schools for a few days and then teachers again; the owner corrected Lakeside Middle's phone number.
 * An owner can filter it to "Adam Reyes, role changes, last week" and export exactly those four rows.
 */
export async function seedDemoAudit(tx: Tx, organizations: ReadonlyMap<string, string>): Promise<number> {
  const people = await rows<{ id: string; email: string; label: string }>(
    tx,
    sql`select id, email, name || ' <' || email || '>' as label from users
        where email in ('owner@riverside.test', 'admin@riverside.test', 'teacher2@northside.test', 'teacher@lakeside.test')`,
  );
  const person = (email: string) => {
    const found = people.find((p) => p.email === email);
    if (!found) throw new Error(`demo account ${email} missing`);
    return found;
  };
  const organization = (name: string) => {
    const id = organizations.get(name);
    if (!id) throw new Error(`demo organization ${name} missing`);
    return id;
  };
  const owner = person('owner@riverside.test');
  const adam = person('admin@riverside.test');
  const roleChange = (
    who: { id: string; label: string },
    where: string,
    from: string,
    to: string,
    at: Date,
  ): AuditRecord => ({
    organizationId: organization(where),
    actorId: adam.id,
    action: 'member_role_changed',
    target: { type: 'member', id: who.id, label: who.label },
    before: { role: from },
    after: { role: to },
    createdAt: at,
  });
  const omar = person('teacher2@northside.test');
  const leo = person('teacher@lakeside.test');
  const [lakeside] = await rows<{ phone: string }>(
    tx,
    sql`select phone_number as phone from organizations where id = ${organization('Lakeside Middle')}`,
  );
  const records: AuditRecord[] = [
    roleChange(omar, 'Northside Elementary', 'user', 'organization_admin', dayOf(9, 9, 12)),
    roleChange(leo, 'Lakeside Middle', 'user', 'organization_admin', dayOf(8, 13, 40)),
    {
      organizationId: organization('Lakeside Middle'),
      actorId: owner.id,
      action: 'organization_updated',
      target: { type: 'organization', id: organization('Lakeside Middle'), label: 'Lakeside Middle' },
      before: { phoneNumber: '+1 555-010-3999' },
      after: { phoneNumber: lakeside?.phone ?? '' },
      createdAt: dayOf(7, 15, 5),
    },
    roleChange(omar, 'Northside Elementary', 'organization_admin', 'user', dayOf(6, 10, 30)),
    roleChange(leo, 'Lakeside Middle', 'organization_admin', 'user', dayOf(5, 16, 48)),
  ];
  await recordAudit(tx, records);
  return records.length;
}
