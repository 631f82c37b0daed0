import { ORGANIZATION_TYPE_LABEL, type OrganizationSummary } from '@allot/domain/organizations';
import { ActionIcon, Anchor, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { Link } from 'react-router';
import { ReasonedActionIcon } from '../../../components/reasoned-button';
import { type PagedTableState, SelectablePagedTable } from '../../../components/selectable-paged-table';
import { deleteBlocked } from '../../../lib/delete-blocked';
import { formatCount } from '../../../lib/format';

interface SubOrganizationsTableProps extends PagedTableState<OrganizationSummary> {
  onEdit?: (organization: OrganizationSummary) => void;
  onDelete?: (organization: OrganizationSummary) => void;
  /**
   * The caller may not delete (delete_org: owners): the delete stays in each row, disabled, saying why in the
   * words of General information, instead of vanishing (issue 33, item 5).
   */
  deleteForbidden?: boolean;
}

function CreditsCell({ credits }: { credits: OrganizationSummary['credits'] }) {
  return (
    <Stack gap={0} align="flex-end">
      <Text size="sm" fw={600}>
        {formatCount(credits.shared + credits.protected)}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {formatCount(credits.shared)} shared · {formatCount(credits.protected)} protected
      </Text>
    </Stack>
  );
}

/** What "Days left" means, as its column header explains it. */
const DAYS_LEFT_MEANING =
  'Days until the credits held in the organization and below run out, at its average daily consumption of the last 28 days.';

/** `daysLeft` of a row (issue 16): the days until its credits run out at its recent rate; null: no forecast. */
type WithDaysLeft = OrganizationSummary & { daysLeft?: number | null };

/**
 * Days left, as General information's forecast (decision 014): the credits held in the organization and below
 * divided by its mean consumption of the last 28 days. None: nothing consumed, or more than a year.
 */
function DaysLeftCell({ organization }: { organization: WithDaysLeft }) {
  const days = organization.daysLeft;
  if (days === undefined) return null;
  if (days === null) {
    return (
      <Tooltip
        label="Nothing consumed in the last 28 days, or the credits last more than a year"
        multiline
        w={240}
      >
        <Text
          size="sm"
          c="dimmed"
          tabIndex={0}
          aria-label="No forecast: nothing consumed in the last 28 days, or more than a year"
        >
          —
        </Text>
      </Tooltip>
    );
  }
  return (
    <Text size="sm" fw={days <= 14 ? 700 : undefined} c={days <= 14 ? 'red.9' : undefined}>
      {formatCount(days)}
    </Text>
  );
}

/** The direct children of an organization: server-side search, sort and pagination. */
export function SubOrganizationsTable({
  onEdit,
  onDelete,
  deleteForbidden = false,
  ...state
}: SubOrganizationsTableProps) {
  const columns: DataTableColumn<OrganizationSummary>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (organization) => (
        <Anchor component={Link} to={`/${encodeURIComponent(organization.id)}`} fw={600} size="sm">
          {organization.name}
        </Anchor>
      ),
    },
    {
      accessor: 'type',
      title: 'Type',
      sortable: true,
      render: (organization) => ORGANIZATION_TYPE_LABEL[organization.type],
    },
    {
      accessor: 'usersCount',
      title: 'Users',
      sortable: true,
      textAlign: 'right',
      render: (organization) => formatCount(organization.usersCount),
    },
    {
      accessor: 'subOrganizationsCount',
      title: 'Sub organizations',
      sortable: true,
      textAlign: 'right',
      render: (organization) => formatCount(organization.subOrganizationsCount),
    },
    {
      accessor: 'credits',
      title: 'Credits',
      sortable: true,
      textAlign: 'right',
      render: (organization) => <CreditsCell credits={organization.credits} />,
    },
    {
      accessor: 'daysLeft',
      // What the figure is, where it is read (issue 33): the header says it on hover and to a screen reader.
      title: (
        <Tooltip label={DAYS_LEFT_MEANING} multiline w={260}>
          <span style={{ textDecoration: 'underline dotted' }}>
            Days left<VisuallyHidden>: {DAYS_LEFT_MEANING}</VisuallyHidden>
          </span>
        </Tooltip>
      ),
      sortable: true,
      textAlign: 'right',
      render: (organization) => <DaysLeftCell organization={organization} />,
    },
  ];
  if (onEdit || onDelete) {
    columns.push({
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      width: 100,
      render: (organization) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {onEdit && (
            <Tooltip label="Edit">
              <ActionIcon
                variant="subtle"
                aria-label={`Edit ${organization.name}`}
                onClick={() => onEdit(organization)}
              >
                <IconPencil size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          {onDelete && (
            <ReasonedActionIcon
              label={`Delete ${organization.name}`}
              tooltip="Delete"
              reason={
                deleteForbidden
                  ? `Only an owner can delete ${organization.name}.`
                  : deleteBlocked(organization)
              }
              color="red"
              onClick={() => onDelete(organization)}
            >
              <IconTrash size={18} />
            </ReasonedActionIcon>
          )}
        </Group>
      ),
    });
  }

  return <SelectablePagedTable label="Sub organizations" columns={columns} {...state} />;
}
