import { formatCountOf } from './format';

/**
 * Why an organization cannot be deleted yet, or undefined: the server refuses (409) while it has
 * sub-organizations, so every place that offers the deletion says so before anyone confirms anything.
 */
export function deleteBlocked(organization: { subOrganizationsCount: number }): string | undefined {
  const count = organization.subOrganizationsCount;
  if (count === 0) return undefined;
  return `Delete its sub-organizations first: it has ${formatCountOf(count, 'sub-organization', 'sub-organizations')}.`;
}
