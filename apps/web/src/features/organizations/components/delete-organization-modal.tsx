import { LICENSE_TYPE_LABEL, type LicenseType } from '@allot/domain/organizations';
import { Alert, Button, List, Modal, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogFoot } from '../../../components/dialog-actions';
import { deleteBlocked } from '../../../lib/delete-blocked';
import { formatCount, formatCountOf } from '../../../lib/format';
import { useDeleteOrganization } from '../api/delete-organization';
import { organizationQueryOptions } from '../api/get-organization';

export interface DeletableOrganization {
  id: string;
  name: string;
  parentOrganizationId: string | null;
  usersCount: number;
  subOrganizationsCount: number;
  credits?: { shared: number; protected: number };
}

interface DeleteOrganizationModalProps {
  /** The organization to delete; null keeps the dialog closed. */
  organization: DeletableOrganization | null;
  /** Its parent, where its credits and licence seats go back to; null for a top-level organization. */
  parentName: string | null;
  onClose: () => void;
  onDeleted?: (id: string) => void;
  /** Navigates away from the organization's own screen once it is deleted (see useDeleteOrganization). */
  leave?: () => Promise<void>;
}

/** "a", "a and b", "a, b and c". */
const listed = (items: string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** "1 Chorus seat", "20 TLE Teacher seats". */
const seatsOf = (licence: { licenseType: LicenseType; maxUsers: number }) =>
  `${formatCount(licence.maxUsers)} ${LICENSE_TYPE_LABEL[licence.licenseType]} ${licence.maxUsers === 1 ? 'seat' : 'seats'}`;

/**
 * Confirmation before DELETE /api/organization/{id}/delete. It says what the server does
 * (organizations/write-organizations.ts deleteOrganization): memberships and pending invitations end, both credit
 * pools go to the parent's pools of the same name, every licence's seats go to the parent's licence of that
 * type (a parent without one gets one). The name must be typed before the button works, as GitHub asks.
 */
export function DeleteOrganizationModal({
  organization: asked,
  parentName,
  onClose,
  onDeleted,
  leave,
}: DeleteOrganizationModalProps) {
  // The last organization asked about stays on screen while the dialog closes (adjusted while rendering).
  const [organization, setOrganization] = useState(asked);
  if (asked && asked !== organization) setOrganization(asked);
  return (
    <Modal
      opened={asked !== null}
      onClose={onClose}
      title={organization ? `Delete ${organization.name}?` : 'Delete organization?'}
      centered
    >
      {/* Mounted only while open: every opening starts with an empty confirmation. */}
      {asked && organization && (
        <DeleteOrganizationForm
          organization={organization}
          parentName={parentName}
          onClose={onClose}
          onDeleted={onDeleted}
          leave={leave}
        />
      )}
    </Modal>
  );
}

function DeleteOrganizationForm({
  organization,
  parentName,
  onClose,
  onDeleted,
  leave,
}: DeleteOrganizationModalProps & { organization: DeletableOrganization }) {
  const remove = useDeleteOrganization({ leave });
  const [error, setError] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  // The licences (and the pools, when the caller did not pass them): a leaf's detail is small.
  // Not once the deletion started: then the organization is gone and asking for it would be a 404.
  const detail = useQuery({
    ...organizationQueryOptions(organization.id),
    enabled: remove.isIdle || remove.isError,
  });
  const credits = organization.credits ?? detail.data?.credits;
  const licences = detail.data?.licenses;
  const blocked = deleteBlocked(organization);
  const matches = typed.trim() === organization.name.trim();
  const to = parentName ?? 'the system';

  async function confirm() {
    setError(null);
    try {
      await remove.mutateAsync(organization);
      notifications.show({
        color: 'green',
        title: 'Organization deleted',
        message: `${organization.name} was deleted.`,
      });
      onDeleted?.(organization.id);
      onClose();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'Something went wrong, please try again later.');
    }
  }

  const loading = <Skeleton component="span" display="inline-block" h={12} w={140} />;
  return (
    <form
      noValidate
      aria-label={`Delete ${organization.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (matches && !blocked && !remove.isPending) void confirm();
      }}
    >
      <Stack gap="md">
        {error && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle aria-hidden="true" />}
            title="Not deleted"
          >
            {error}
          </Alert>
        )}
        {blocked && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden="true" />}>
            {blocked}
          </Alert>
        )}
        <Text size="sm">
          Deleting{' '}
          <Text span fw={600} inherit>
            {organization.name}
          </Text>{' '}
          cannot be undone. What it holds goes back to{' '}
          <Text span fw={600} inherit>
            {to}
          </Text>
          :
        </Text>
        <List size="sm" spacing={6} aria-label="What the deletion does">
          <List.Item>
            <Text span fw={600} inherit>
              Users:
            </Text>{' '}
            the memberships of its {formatCountOf(organization.usersCount, 'user', 'users')} end and its
            pending invitations are cancelled. Their accounts and their own credits stay.
          </List.Item>
          <List.Item>
            <Text span fw={600} inherit>
              Credits:
            </Text>{' '}
            {credits
              ? credits.shared + credits.protected === 0
                ? 'it holds none.'
                : parentName
                  ? `its shared pool (${formatCount(credits.shared)}) goes to the shared pool of ${parentName}, its protected pool (${formatCount(credits.protected)}) to the protected pool of ${parentName}.`
                  : `its shared pool (${formatCount(credits.shared)}) and its protected pool (${formatCount(credits.protected)}) go back to the system.`
              : detail.isError
                ? `both pools go to ${to}.`
                : loading}
          </List.Item>
          <List.Item>
            <Text span fw={600} inherit>
              Licence seats:
            </Text>{' '}
            {licences
              ? licences.length === 0
                ? 'it holds no licence.'
                : parentName
                  ? `${parentName} receives ${listed(licences.map(seatsOf))}, in use or not (its users leave).`
                  : `its licences (${licences.map((l) => LICENSE_TYPE_LABEL[l.licenseType]).join(', ')}) end.`
              : detail.isError
                ? `they go to ${to}.`
                : loading}
          </List.Item>
        </List>
        <TextInput
          label={
            <>
              To confirm, type{' '}
              <Text span fw={700} inherit>
                {organization.name}
              </Text>
            </>
          }
          aria-label={`Type ${organization.name} to confirm`}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          disabled={Boolean(blocked)}
        />
        <DialogFoot>
          <Button variant="default" onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button
            type="submit"
            color="red"
            disabled={!matches || Boolean(blocked)}
            loading={remove.isPending}
          >
            Delete organization
          </Button>
        </DialogFoot>
      </Stack>
    </form>
  );
}
