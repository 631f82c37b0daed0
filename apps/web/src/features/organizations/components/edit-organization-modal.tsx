import {
  type OrganizationType,
  type UpdateOrganizationRequest,
  updateOrganizationRequestSchema,
} from '@allot/domain/organizations';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { useUpdateOrganization } from '../api/update-organization';
import { OrganizationDetailsFields } from './organization-details-fields';

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
  const form = useForm<UpdateOrganizationRequest>({
    resolver: zodResolver(updateOrganizationRequestSchema),
    defaultValues: {
      name: organization.name,
      type: organization.type,
      phoneNumber: organization.phoneNumber,
    },
  });

  const {
    handleSubmit,
    setError,
    formState: { isSubmitting, isDirty },
  } = form;

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
    <FormProvider {...form}>
      <form noValidate onSubmit={handleSubmit(submit)} aria-label="Edit organization">
        <Stack gap="md">
          {formError && <FormAlert title="Not saved">{formError}</FormAlert>}
          <OrganizationDetailsFields />
          <DialogActions
            onCancel={onClose}
            busy={isSubmitting}
            submitLabel="Save changes"
            submitDisabled={!isDirty}
          />
        </Stack>
      </form>
    </FormProvider>
  );
}
