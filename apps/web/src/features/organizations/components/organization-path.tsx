import type { OrganizationRef } from '@allot/domain/organizations';
import { Anchor, Text } from '@mantine/core';
import { Fragment } from 'react';
import { Link } from 'react-router';

/**
 * Where an organization sits, in small text: "Riverside District › Northside Elementary › Maple", its
 * ancestors (those the person may see, highest first) each a link to its dashboard, then its own name.
 * Nothing for an organization without visible ancestors.
 */
export function OrganizationPath({ path, name }: { path: OrganizationRef[]; name: string }) {
  if (path.length === 0) return null;
  return (
    <Text size="xs" c="dimmed" lineClamp={2} data-organization-path="">
      {path.map((ancestor) => (
        <Fragment key={ancestor.id}>
          <Anchor
            component={Link}
            to={`/${encodeURIComponent(ancestor.id)}`}
            inherit
            c="dimmed"
            underline="always"
          >
            {ancestor.name}
          </Anchor>
          <span aria-hidden="true"> › </span>
        </Fragment>
      ))}
      {name}
    </Text>
  );
}
