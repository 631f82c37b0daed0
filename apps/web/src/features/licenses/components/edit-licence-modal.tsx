import { MAX_SEATS } from '@allot/domain/licenses';
import { MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL, type License } from '@allot/domain/organizations';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatCount } from '../../../lib/format';
import { parseWhole } from '../../../lib/numbers';
import { useUpdateLicense } from '../api/update-license';
import { dateFieldValue, expiryFromField } from '../forms/expiry';
import { ExpiryInput, SeatsInput } from './licence-fields';

interface EditLicenceModalProps {
  /** The licence to edit; null keeps the dialog closed. */
  license: License | null;
  organizationName: string;
  onClose: () => void;
}

const schema = z
  .object({ maxUsers: z.string(), expireAt: z.string().min(1, MSG.required) })
  .superRefine((values, ctx) => {
    // Spec §5: maxUsers not negative; the server refuses fewer than the seats in use (422).
    const seats = parseWhole(values.maxUsers, 0, MAX_SEATS);
    if (!seats.ok) ctx.addIssue({ code: 'custom', path: ['maxUsers'], message: seats.message });
  });
type Values = z.infer<typeof schema>;
const FIELDS = ['maxUsers', 'expireAt'] as const;

const titleOf = (license: License | null) =>
  license ? `Edit the ${LICENSE_TYPE_LABEL[license.licenseType]} licence` : 'Edit licence';

/** 'Edit' (system admins): the seats a licence holds and its expiry; a refusal stays in the dialog. */
export function EditLicenceModal({ license, organizationName, onClose }: EditLicenceModalProps) {
  return (
    <Modal opened={license !== null} onClose={onClose} title={titleOf(license)} centered>
      {license && (
        <EditLicenceForm
          key={license.id}
          license={license}
          organizationName={organizationName}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function EditLicenceForm({
  license,
  organizationName,
  onClose,
}: {
  license: License;
  organizationName: string;
  onClose: () => void;
}) {
  const update = useUpdateLicense();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { maxUsers: String(license.maxUsers), expireAt: dateFieldValue(license.expireAt) },
  });

  async function submit(values: Values) {
    setFailure(null);
    const seats = parseWhole(values.maxUsers, 0, MAX_SEATS);
    try {
      const saved = await update.mutateAsync({
        license,
        maxUsers: seats.ok ? seats.value : 0,
        expireAt: expiryFromField(values.expireAt, license.expireAt),
      });
      notifications.show({
        color: 'green',
        title: 'Licence saved',
        message: `The ${LICENSE_TYPE_LABEL[saved.licenseType]} licence of ${organizationName} holds ${formatCount(saved.maxUsers)} seats.`,
      });
      onClose();
    } catch (error) {
      setFailure(applyServerErrors(error, FIELDS, (field, message) => setError(field, { message })));
    }
  }

  return (
    <form noValidate aria-label={titleOf(license)} onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {failure && <FormAlert title="Not saved">{failure}</FormAlert>}
        <Text size="sm">
          {formatCount(license.usedSeats)} of its seats are in use: it cannot hold fewer. A new expiry also
          reaches the licences handed down from it to sub-organizations.
        </Text>
        <SeatsInput data-autofocus error={errors.maxUsers?.message} {...register('maxUsers')} />
        <ExpiryInput error={errors.expireAt?.message} {...register('expireAt')} />
        <DialogActions
          onCancel={onClose}
          busy={isSubmitting}
          submitLabel="Save changes"
          submitDisabled={!isDirty}
        />
      </Stack>
    </form>
  );
}
