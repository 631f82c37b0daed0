import type { Organization } from '@allot/domain/organizations';
import { REQUEST_PERMISSION, type RequestKind } from '@allot/domain/requests';
import { useOrganizations } from '../../organizations/api/get-organizations';
import { useParentOrganizations } from '../../organizations/api/get-parent-organizations';
import { useOrganizationPermissions } from '../../organizations/hooks/use-organization-permissions';

/**
 * Who does what with requests in an organization (CONTRACT §11):
 * - `manages`: may see its requests, cancel its open ones, and read what is above it (owners and admins,
 *   held there or above; system admins);
 * - `mayDecide`: may see the requests of the organizations directly below; `decides(kind)`: may answer one of
 *   that kind, which needs the permission of the allocation it makes (`REQUEST_PERMISSION`, decision 017);
 * - `mayAsk`: may ask the organization above, which it does not manage itself. Someone who also manages the
 *   organization above (a district admin on a school's screen, a system admin) allocates directly instead:
 *   asking would be asking oneself. Known once the ancestors and the caller's own organizations are loaded.
 */
export function useRequestRights(organization: Organization) {
  const { can, role } = useOrganizationPermissions(organization);
  const manages = can('transfer_org_credits') || can('manage_org_license');
  const hasParent = organization.parentOrganizationId !== null;
  const { data: parents } = useParentOrganizations(organization.id);
  const { data: mine } = useOrganizations();
  const mineIds = new Set(mine?.map((o) => o.id));
  const managesAbove =
    role === 'system_admin' || (parents ?? []).some((ancestor) => mineIds.has(ancestor.id));
  return {
    manages,
    mayDecide: manages && organization.subOrganizationsCount > 0,
    decides: (kind: RequestKind) => can(REQUEST_PERMISSION[kind]),
    mayAsk: manages && hasParent && parents !== undefined && mine !== undefined && !managesAbove,
  };
}
