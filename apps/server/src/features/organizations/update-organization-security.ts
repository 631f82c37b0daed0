import { MFA_MSG } from '@allot/domain/mfa';
import type { OrganizationSecurity, UpdateOrganizationSecurityRequest } from '@allot/domain/organizations';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { recordAudit } from '../audit';
import { type CodeAttempt, endSessionsOfUnenrolled, type SignInSettings, useOwnCode } from '../auth';
import { lockOrganization, requireOrganizationAccess } from '../organization-access';

/**
 * An organization's two-factor requirement as a JSON column of a read (decision 015): its own setting and the
 * highest organization above it that requires it too.
 */
export function organizationSecurityJson(organizationId: string | SQL): SQL {
  return sql`(select json_build_object(
      'requireMfa', o.require_mfa,
      'requiredAbove', (select json_build_object('id', a.id, 'name', a.name)
        from organization_closure c join organizations a on a.id = c.ancestor_id
        where c.descendant_id = o.id and c.depth > 0 and a.require_mfa
        order by c.depth desc limit 1))
    from organizations o where o.id = ${organizationId} and o.deleted_at is null)`;
}

/**
 * POST /api/organization/{id}/security (CONTRACT §3): an owner (effective: of it or above it) or a system admin
 * requires two-factor of the owners and admins of the organization and of everything below. Audit-logged as
 * `organization_security_updated`. Switching it on or off needs the caller's own two-factor on (`422`) and a
 * code of it in the call (`useOwnCode`: a session that was left open must not switch a district's requirement
 * off). Turning it on ends the sessions of the people it now catches that did not prove the second factor, so
 * each is walked through it at the next sign-in.
 */
export async function updateOrganizationSecurity(
  tx: Tx,
  user: AuthUser,
  organizationId: string,
  input: UpdateOrganizationSecurityRequest,
  own: { attempt: CodeAttempt | null; settings: SignInSettings },
): Promise<OrganizationSecurity> {
  const access = await requireOrganizationAccess(tx, user, organizationId);
  if (access.role !== 'system_admin' && access.role !== 'organization_owner') {
    throw AppError.forbidden(MFA_MSG.ownerOnly);
  }
  const notOn = input.requireMfa ? MFA_MSG.turnOnYoursFirst : MFA_MSG.ownNeeded;
  await useOwnCode(tx, user, input.code, own.attempt, own.settings, notOn);
  const { name } = await lockOrganization(tx, organizationId);
  const [current] = await rows<{ require_mfa: boolean }>(
    tx,
    sql`select require_mfa from organizations where id = ${organizationId}`,
  );
  if (current && current.require_mfa !== input.requireMfa) {
    await tx.execute(sql`update organizations set require_mfa = ${input.requireMfa}, updated_at = now()
      where id = ${organizationId}`);
    await recordAudit(tx, {
      organizationId,
      actorId: user.userId,
      action: 'organization_security_updated',
      target: { type: 'organization', id: organizationId, label: name },
      before: { requireMfa: current.require_mfa },
      after: { requireMfa: input.requireMfa },
    });
    if (input.requireMfa) await endSessionsOfUnenrolled(tx, organizationId);
  }
  const [row] = await rows<{ security: OrganizationSecurity }>(
    tx,
    sql`select ${organizationSecurityJson(organizationId)} as security`,
  );
  if (!row?.security) throw AppError.notFound();
  return row.security;
}
