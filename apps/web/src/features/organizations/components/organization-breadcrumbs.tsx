import type { Organization } from '@allot/domain/organizations';
import { Anchor, Breadcrumbs, Skeleton, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PICKER_STATE } from '../../../lib/home-link';
import { useSession } from '../../../lib/session';
import { useOrganizations } from '../api/get-organizations';
import { type ParentOrganization, useParentOrganizations } from '../api/get-parent-organizations';

/**
 * Which ancestors the caller may open: a role applies to its organization and everything below, so an
 * ancestor is open once it, or one above it, is among the caller's own organizations. The ones above
 * (e.g. the district over a school admin's school) are named but not linked: opening them would be a 404.
 */
function openable(
  parents: ParentOrganization[],
  mine: ReadonlySet<string> | null,
  systemAdmin: boolean,
): boolean[] {
  let reached = systemAdmin;
  return parents.map((parent) => {
    reached = reached || (mine?.has(parent.id) ?? false);
    return reached;
  });
}

/** Home › root › … › parent › current, at the top of every dashboard screen. */
export function OrganizationBreadcrumbs({
  organization,
}: {
  organization: Pick<Organization, 'id' | 'name' | 'parentOrganizationId'>;
}) {
  const { data: parents, isPending, isError } = useParentOrganizations(organization.id);
  const { data: mine } = useOrganizations();
  const { role } = useSession();
  const links = parents
    ? openable(parents, mine ? new Set(mine.map((o) => o.id)) : null, role === 'system_admin')
    : [];

  return (
    <nav aria-label="Breadcrumb">
      <Breadcrumbs
        separator={<IconChevronRight size={14} aria-hidden="true" />}
        separatorMargin={6}
        style={{ flexWrap: 'wrap', rowGap: 4 }}
      >
        <Anchor component={Link} to="/" state={PICKER_STATE} size="sm">
          Home
        </Anchor>
        {isPending && organization.parentOrganizationId && (
          <Skeleton h={14} w={120} aria-label="Loading parent organizations" />
        )}
        {!isError &&
          parents?.map((parent, index) =>
            links[index] ? (
              <Anchor key={parent.id} component={Link} to={`/${encodeURIComponent(parent.id)}`} size="sm">
                {parent.name}
              </Anchor>
            ) : (
              <Text key={parent.id} size="sm" c="dimmed">
                {parent.name}
              </Text>
            ),
          )}
        <Text size="sm" fw={600} aria-current="page">
          {organization.name}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}
