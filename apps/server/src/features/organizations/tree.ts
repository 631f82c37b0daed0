import type { OrganizationType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';

export interface NewOrganization {
  name: string;
  type: OrganizationType;
  phoneNumber: string;
  parentId: string | null;
}

/**
 * Inserts an organization and its ancestry rows (itself at depth 0, then every ancestor of the parent,
 * each with its name) in the caller's transaction, so the tree and the closure table never disagree.
 */
export async function insertOrganization(tx: Tx, org: NewOrganization): Promise<string> {
  const [created] = await rows<{ id: string }>(
    tx,
    sql`insert into organizations (name, type, phone_number, parent_id, depth)
        values (${org.name}, ${org.type}, ${org.phoneNumber}, ${org.parentId},
          coalesce((select depth + 1 from organizations where id = ${org.parentId}), 0))
        returning id`,
  );
  if (!created) throw new Error('organization insert returned no row');
  await tx.execute(sql`
    insert into organization_closure (ancestor_id, descendant_id, depth, name)
    select ${created.id}::uuid, ${created.id}::uuid, 0, ${org.name}
    union all
    select ancestor_id, ${created.id}::uuid, depth + 1, ${org.name}
    from organization_closure where descendant_id = ${org.parentId}`);
  await tx.execute(sql`
    insert into credit_accounts (kind, organization_id) values ('shared', ${created.id}), ('protected', ${created.id})`);
  return created.id;
}

/** Renames an organization and the copies of its name in the ancestry rows, in one transaction. */
export async function renameInTree(tx: Tx, id: string, name: string): Promise<void> {
  await tx.execute(
    sql`update organization_closure set name = ${name} where descendant_id = ${id} and name <> ${name}`,
  );
}
