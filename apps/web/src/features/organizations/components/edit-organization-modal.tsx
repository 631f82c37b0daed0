import {
  type OrganizationType,
  type UpdateOrganizationRequest,
  updateOrganizationRequestSchema,
} from '@allot/domain/organizations';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { applyServerErrors } from '../../../lib/form-errors';
import { useUpdateOrganization } from '../api/update-organization';
import { OrganizationTypeSelect } from './organization-type-select';

export interface EditableOrganization {
  id: string;
  name: string;
  type: OrganizationType;
  phoneNumber: string;
}

interface EditOrganizationModalProps {
  /** The organization to edit; null keeps the dialog closed. */
  organization: EditableOrganization | null;
  onClose: () => void;
}

const FIELDS = ['name', 'type', 'phoneNumber'] as const;

/** Edit name, type and phone number (POST /api/organization/{id}/update). */
export function EditOrganizationModal({ organization, onClose }: EditOrganizationModalProps) {
  return (
    <Modal
      opened={organization !== null}
      onClose={onClose}
      title={organization ? `Edit ${organization.name}` : 'Edit organization'}
      size="md"
      centered
    >
      {organization && (
        <EditOrganizationForm key={organization.id} organization={organization} onClose={onClose} />
      )}
    </Modal>
  );
}

function EditOrganizationForm({
  organization,
  onClose,
}: {
  organization: EditableOrganization;
  onClose: () => void;
}) {
  const update = useUpdateOrganization();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<UpdateOrganizationRequest>({
    resolver: zodResolver(updateOrganizationRequestSchema),
    defaultValues: {
      name: organization.name,
      type: organization.type,
      phoneNumber: organization.phoneNumber,
    },
  });

  async function submit(values: UpdateOrganizationRequest) {
    setFormError(null);
    try {
      const saved = await update.mutateAsync({ id: organization.id, ...values });
      notifications.show({ color: 'green', title: 'Changes saved', message: `${saved.name} was updated.` });
      onClose();
    } catch (error) {
      setFormError(applyServerErrors(error, FIELDS, (field, message) => setError(field, { message })));
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit(submit)} aria-label="Edit organization">
      <Stack gap="md">
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} title="Not saved">
            {formError}
          </Alert>
        )}
        <TextInput label="Name" required data-autofocus error={errors.name?.message} {...register('name')} />
        <Controller
          control={control}
          name="type"
          render={({ field }) => (
            <OrganizationTypeSelect
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.type?.message}
            />
          )}
        />
        <TextInput
          label="Phone number"
          type="tel"
          required
          error={errors.phoneNumber?.message}
          {...register('phoneNumber')}
        />
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
