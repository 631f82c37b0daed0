import { MSG } from '@allot/domain/messages';
import { createOrganizationRequestSchema, type Organization } from '@allot/domain/organizations';
import type { Role } from '@allot/domain/roles';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useId, useMemo, useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { useCreateOrganization } from '../api/create-organization';
import { useRoleIn } from '../api/get-organization-role';
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
  /**
   * Whether the caller may appoint an owner in the fixed parent (an owner or a system admin there: CONTRACT §2);
   * false hides the owner fields. Without a fixed parent the dialog asks the server for the caller's role in
   * the chosen parent, and shows them once it is known to allow it.
   */
  canAppointOwner?: boolean;
}

const APPOINTERS: readonly (Role | null)[] = ['system_admin', 'organization_owner'];

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
  const ownerHeadingId = useId();
  const words = useMailWords();
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
    resetField,
    watch,
    formState: { errors, isSubmitting },
  } = form;

  // Only an owner or a system admin makes someone owner (the server refuses anyone else, 403): the owner
  // fields are shown only to them. With a fixed parent the caller says; else the chosen parent decides.
  const chosenParent = parent ? null : watch('parentOrganizationId');
  const roleInChosen = useRoleIn(chosenParent);
  const mayAppointOwner = parent
    ? canAppointOwner !== false
    : chosenParent
      ? APPOINTERS.includes(roleInChosen.data ?? null)
      : mayCreateRoot; // a system admin, who may leave the parent empty
  useEffect(() => {
    if (mayAppointOwner) return;
    resetField('adminName');
    resetField('adminEmail');
  }, [mayAppointOwner, resetField]);

  async function submit(values: Output) {
    setFormError(null);
    try {
      const { adminName, adminEmail, ...details } = values;
      const organization = await create.mutateAsync({
        ...details,
        ...(mayAppointOwner ? { adminName, adminEmail } : {}),
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
          {mayAppointOwner && (
            <Stack gap={6} role="group" aria-labelledby={ownerHeadingId}>
              <Text size="sm" fw={500} id={ownerHeadingId}>
                Owner (optional)
              </Text>
              <Text size="xs" c="dimmed" mt={-4}>
                {words.ownerNote}
              </Text>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
                <TextInput label="Owner name" error={errors.adminName?.message} {...register('adminName')} />
                <TextInput
                  label="Owner email"
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
