import type { AuditAction } from '@allot/domain/audit';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { recordAudit } from '../audit';

export interface MemberChange {
  userId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Audit entries of changes to people of one organization (decision 014), labelled "Name <email>" as the
 * organization sees them: a member's account, an invited person's name and address as the inviter typed
 * them, named by the invitation's id (CONTRACT §3). Changes whose before and after are equal are left out.
 */
export async function auditMemberChanges(
  tx: Tx,
  context: { organizationId: string; actorId: string | null; action: AuditAction },
  changes: readonly MemberChange[],
): Promise<void> {
  const real = changes.filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after));
  if (real.length === 0) return;
  const ids = [...new Set(real.map((c) => c.userId))];
  const labels = await rows<{ user_id: string; target_id: string; label: string }>(
    tx,
    sql`select u.id as user_id, coalesce(i.id, u.id) as target_id,
          coalesce(i.invited_name, u.name) || ' <' || coalesce(i.invited_email, u.email) || '>' as label
        from users u
        left join membership_invitations i on i.user_id = u.id and i.organization_id = ${context.organizationId}
        where u.id in ${uuidsIn(ids)}`,
  );
  const labelOf = new Map(labels.map((l) => [l.user_id, l]));
  await recordAudit(
    tx,
    real.map((c) => ({
      organizationId: context.organizationId,
      actorId: context.actorId,
      action: context.action,
      target: {
        type: 'member' as const,
        id: labelOf.get(c.userId)?.target_id ?? c.userId,
        label: labelOf.get(c.userId)?.label ?? '',
      },
      before: c.before,
      after: c.after,
    })),
  );
}
