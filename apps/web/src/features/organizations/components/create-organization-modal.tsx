import { MSG } from '@allot/domain/messages';
import { createOrganizationRequestSchema, type Organization } from '@allot/domain/organizations';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { useCreateOrganization } from '../api/create-organization';
import { OrganizationDetailsFields } from './organization-details-fields';
import { ParentOrganizationSelect } from './parent-organization-select';

type Input = z.input<typeof createOrganizationRequestSchema>;
type Output = z.output<typeof createOrganizationRequestSchema>;
const FIELDS = ['name', 'type', 'phoneNumber', 'parentOrganizationId', 'adminName', 'adminEmail'] as const;

interface CreateOrganizationModalProps {
  opened: boolean;
  onClose: () => void;
  onCreated: (organization: Organization) => void;
  /** A fixed parent (the sub-organizations screen); without it the person picks one. */
  parent?: { id: string; name: string };
  /** Whether a root may be created (system admin): then the parent may stay empty. */
  mayCreateRoot: boolean;
  /** false hides the owner fields (only an owner or a system admin may appoint an owner). */
  canAppointOwner?: boolean;
}

/** The "Add organization" / "Create sub-organization" dialog (POST /api/organization/create). */
export function CreateOrganizationModal(props: CreateOrganizationModalProps) {
  const title = props.parent ? 'Create sub-organization' : 'Add organization';
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={title} size="lg" centered>
      {/* Mounted only while open: every opening starts with an empty form. */}
      {props.opened && <CreateOrganizationForm {...props} />}
    </Modal>
  );
}

function CreateOrganizationForm({
  onClose,
  onCreated,
  parent,
  mayCreateRoot,
  canAppointOwner,
}: CreateOrganizationModalProps) {
  const create = useCreateOrganization();
  const [formError, setFormError] = useState<string | null>(null);
  const parentRequired = !parent && !mayCreateRoot;
  const schema = useMemo(
    () =>
      parentRequired
        ? createOrganizationRequestSchema.extend({
            parentOrganizationId: z.string({ error: MSG.required }).min(1, MSG.required),
          })
        : createOrganizationRequestSchema,
    [parentRequired],
  );
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: {
      name: '',
      phoneNumber: '',
      type: undefined,
      parentOrganizationId: parent?.id ?? null,
      adminName: '',
      adminEmail: '',
    },
  });

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  async function submit(values: Output) {
    setFormError(null);
    try {
      const organization = await create.mutateAsync({
        ...values,
        parentOrganizationId: parent?.id ?? values.parentOrganizationId,
      });
      notifications.show({
        color: 'green',
        title: 'Organization created',
        message: `${organization.name} was created.`,
      });
      onCreated(organization);
    } catch (error) {
      setFormError(applyServerErrors(error, FIELDS, (field, message) => setError(field, { message })));
    }
  }

  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={handleSubmit(submit)}
        aria-label={parent ? 'Create sub-organization' : 'Add organization'}
      >
        <Stack gap="md">
          {formError && <FormAlert title="Not created">{formError}</FormAlert>}
          <OrganizationDetailsFields columns={2} />
          {parent ? (
            <TextInput label="Parent organization" value={parent.name} readOnly disabled />
          ) : (
            <Controller
              control={control}
              name="parentOrganizationId"
              render={({ field }) => (
                <ParentOrganizationSelect
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  required={parentRequired}
                  description={mayCreateRoot ? 'Leave empty to create a top-level organization.' : undefined}
                  error={errors.parentOrganizationId?.message}
                />
              )}
            />
          )}
          {canAppointOwner !== false && (
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                Owner (optional)
              </Text>
              <Text size="xs" c="dimmed" mt={-4}>
                This person becomes the owner of the new organization and is invited by email if they have no
                account yet. Only an owner can appoint an owner.
              </Text>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
                <TextInput label="Admin name" error={errors.adminName?.message} {...register('adminName')} />
                <TextInput
                  label="Admin email"
                  type="email"
                  error={errors.adminEmail?.message}
                  {...register('adminEmail')}
                />
              </SimpleGrid>
            </Stack>
          )}
          <DialogActions
            onCancel={onClose}
            busy={isSubmitting}
            submitLabel={parent ? 'Create sub-organization' : 'Add organization'}
          />
        </Stack>
      </form>
    </FormProvider>
  );
}
