import { MAX_SEATS } from '@allot/domain/licenses';
import { MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL, LICENSE_TYPES, type LicenseType } from '@allot/domain/organizations';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatCount } from '../../../lib/format';
import { parseWhole } from '../../../lib/numbers';
import { useCreateLicense } from '../api/create-license';
import { expiryFromField, inOneYear } from '../forms/expiry';
import { ExpiryInput, SeatsInput } from './licence-fields';

interface CreateLicenceModalProps {
  opened: boolean;
  onClose: () => void;
  organization: { id: string; name: string };
  /** The types the organization does not hold yet (one licence per type). */
  types: readonly LicenseType[];
}

const schema = z
  .object({
    licenseType: z.enum(LICENSE_TYPES),
    maxUsers: z.string(),
    expireAt: z.string().min(1, MSG.required),
  })
  .superRefine((values, ctx) => {
    // Spec §5: a licence is created with maxUsers above 0.
    const seats = parseWhole(values.maxUsers, 1, MAX_SEATS);
    if (!seats.ok) ctx.addIssue({ code: 'custom', path: ['maxUsers'], message: seats.message });
  });
type Values = z.infer<typeof schema>;
const FIELDS = ['licenseType', 'maxUsers', 'expireAt'] as const;

/** 'Create new licence' (spec §2, system admins): a licence of a type, its seats and expiry, without an invoice. */
export function CreateLicenceModal(props: CreateLicenceModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Create new licence" centered>
      {props.opened && props.types.length > 0 && <CreateLicenceForm {...props} />}
    </Modal>
  );
}

function CreateLicenceForm({ onClose, organization, types }: CreateLicenceModalProps) {
  const create = useCreateLicense();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { licenseType: types[0], maxUsers: '', expireAt: inOneYear(new Date()) },
  });

  async function submit(values: Values) {
    setFailure(null);
    const seats = parseWhole(values.maxUsers, 1, MAX_SEATS);
    try {
      const license = await create.mutateAsync({
        organizationId: organization.id,
        licenseType: values.licenseType,
        maxUsers: seats.ok ? seats.value : 0,
        expireAt: expiryFromField(values.expireAt),
      });
      notifications.show({
        color: 'green',
        title: 'Licence created',
        message: `${organization.name} has a ${LICENSE_TYPE_LABEL[license.licenseType]} licence with ${formatCount(license.maxUsers)} seats.`,
      });
      onClose();
    } catch (error) {
      setFailure(applyServerErrors(error, FIELDS, (field, message) => setError(field, { message })));
    }
  }

  return (
    <form noValidate aria-label="Create new licence" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {failure && <FormAlert title="Not created">{failure}</FormAlert>}
        <Text size="sm">
          A licence for {organization.name}, without an invoice. To sell one, use an invoice instead: the
          organization's admins buy it, and it is applied when you fulfil the invoice.
        </Text>
        <Controller
          control={control}
          name="licenseType"
          render={({ field }) => (
            <Select
              label="Licence type"
              required
              allowDeselect={false}
              data={types.map((type) => ({ value: type, label: LICENSE_TYPE_LABEL[type] }))}
              value={field.value}
              onChange={(value) => value && field.onChange(value)}
              onBlur={field.onBlur}
              ref={field.ref}
              error={errors.licenseType?.message}
            />
          )}
        />
        <SeatsInput data-autofocus error={errors.maxUsers?.message} {...register('maxUsers')} />
        <ExpiryInput error={errors.expireAt?.message} {...register('expireAt')} />
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Create licence" />
      </Stack>
    </form>
  );
}
