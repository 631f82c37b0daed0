import { LICENSE_TYPE_LABEL, type License } from '@allot/domain/organizations';
import type { OrganizationUser } from '@allot/domain/users';
import { Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { formatCountOf } from '../../../lib/format';
import { useUpdateUserLicenses } from '../api/update-user-licenses';
import { LicenceSelect } from './licence-select';
import { SelectedNames } from './selected-names';

interface ChangeLicenceModalProps {
  opened: boolean;
  users: OrganizationUser[];
  organization: { id: string; name: string; licenses?: License[] };
  onClose: () => void;
  onChanged: () => void;
  /** The licence chosen when the dialog opens (e.g. the product access panel's 'Give a seat'). */
  initialLicenseId?: string;
}

const countUsers = (count: number) => formatCountOf(count, 'user', 'users');

/** Moves the selected users onto one licence of the organization (POST /api/user/update/licenses). */
export function ChangeLicenceModal(props: ChangeLicenceModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Change licence" size="md" centered>
      {props.opened && <ChangeLicenceForm {...props} />}
    </Modal>
  );
}

function ChangeLicenceForm({
  users,
  organization,
  onClose,
  onChanged,
  initialLicenseId,
}: ChangeLicenceModalProps) {
  const licenses = organization.licenses ?? [];
  const update = useUpdateUserLicenses();
  const [licenseId, setLicenseId] = useState<string | null>(
    licenses.find((l) => l.id === initialLicenseId)?.id ??
      (licenses.length === 1 ? (licenses[0]?.id ?? null) : null),
  );
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);

  async function submit() {
    const license = licenses.find((l) => l.id === licenseId);
    if (!license) {
      setMissing(true);
      return;
    }
    setError(null);
    try {
      await update.mutateAsync({
        userIds: users.map((u) => u.id),
        licenseId: license.id,
        organizationId: organization.id,
      });
      notifications.show({
        color: 'green',
        title: 'Licence changed',
        message: `${countUsers(users.length)} now on ${LICENSE_TYPE_LABEL[license.licenseType]}.`,
      });
      onChanged();
      onClose();
    } catch (cause) {
      setError(errorText(cause));
    }
  }

  return (
    <form
      noValidate
      aria-label="Change licence"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="md">
        {error && <FormAlert title="Licence not changed">{error}</FormAlert>}
        <Text size="sm">
          Move {countUsers(users.length)} onto one licence of {organization.name}. Users already on it keep
          their seat; the others take a free seat of it and give back the one they held.
        </Text>
        <SelectedNames users={users} />
        <LicenceSelect
          label="Licence"
          licenses={licenses}
          value={licenseId}
          onChange={(value) => {
            setLicenseId(value);
            setMissing(false);
          }}
          error={missing ? 'Field is required.' : undefined}
        />
        <DialogActions onCancel={onClose} busy={update.isPending} submitLabel="Change licence" />
      </Stack>
    </form>
  );
}
