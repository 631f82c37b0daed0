import type { Organization } from '@allot/domain/organizations';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { organizationQueryOptions } from '../../features/organizations/api/get-organization';
import { isApiError } from '../../lib/api-error';
import { queryClient } from '../../lib/query-client';
import { updateSession } from '../../lib/session';
import { ensureValidSession } from './session-guards';

/** Role and permissions come from the selected organization's permissionsAndRole (spec §6). */
export function applyPermissionsAndRole(organization: Organization): void {
  const granted = organization.permissionsAndRole;
  if (!granted) return;
  updateSession({ role: granted.role.name, permissions: granted.permissions.map((p) => p.name) });
}

/** Loads the organization named in the URL (spec §2 Guards) before the dashboard renders. */
export async function organizationLoader({ params }: LoaderFunctionArgs): Promise<{ id: string }> {
  if (!(await ensureValidSession())) throw redirect('/login');
  const id = params.organization ?? '';
  try {
    const organization = await queryClient.ensureQueryData(organizationQueryOptions(id));
    applyPermissionsAndRole(organization);
  } catch (error) {
    if (isApiError(error) && error.status === 401) throw redirect('/login');
    throw error;
  }
  return { id };
}
