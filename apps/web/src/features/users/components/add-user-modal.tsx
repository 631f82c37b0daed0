import { MSG } from '@allot/domain/messages';
import type { License } from '@allot/domain/organizations';
import { emailSchema, MEMBER_ROLES, type MemberRole, userNameSchema } from '@allot/domain/users';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { useCreateUser } from '../api/create-user';
import { AUTOMATIC_LICENCE, LicenceSelect } from './licence-select';
import { OwnerChangeNotice } from './owner-change-notice';
import { RoleSelect } from './role-select';

const schema = z.object({
  email: emailSchema,
  name: userNameSchema,
  role: z.enum(MEMBER_ROLES, { error: MSG.required }),
  licenseId: z.string(),
});
type Values = z.infer<typeof schema>;
const FIELDS = ['email', 'name', 'role', 'licenseId'] as const;

interface AddUserModalProps {
  opened: boolean;
  onClose: () => void;
  organization: { id: string; name: string; adminName: string | null; licenses?: License[] };
  roles: readonly MemberRole[];
}

/** "Add user" (POST /api/user/create): the person is invited (by email where mail is sent) and takes a licence seat. */
export function AddUserModal(props: AddUserModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Add user" size="lg" centered>
      {/* Mounted only while open: every opening starts with an empty form. */}
      {props.opened && <AddUserForm {...props} />}
    </Modal>
  );
}

function AddUserForm({ onClose, organization, roles }: AddUserModalProps) {
  const create = useCreateUser();
  const words = useMailWords();
  const licenses = organization.licenses ?? [];
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { email: '', name: '', role: 'user', licenseId: AUTOMATIC_LICENCE },
  });
  const makingOwner = watch('role') === 'organization_owner';

  async function submit(values: Values) {
    setFormError(null);
    try {
      const user = await create.mutateAsync({
        email: values.email,
        name: values.name,
        role: values.role,
        organizationId: organization.id,
        licenseId: values.licenseId === AUTOMATIC_LICENCE ? undefined : values.licenseId,
      });
      notifications.show({
        color: 'green',
        title: 'User added',
        message: words.userAdded(user.name),
      });
      onClose();
    } catch (error) {
      // A 409 email_taken names the email field: the spec's text lands there.
      setFormError(
        applyServerErrors(error, FIELDS, (field, message) =>
          setError(field, { message }, { shouldFocus: true }),
        ),
      );
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit(submit)} aria-label="Add user">
      <Stack gap="md">
        {formError && <FormAlert title="User could not be created">{formError}</FormAlert>}
        <Alert variant="light" color="indigo" icon={<IconMailForward aria-hidden="true" />}>
          <Text size="sm">{words.addUserNote(organization.name)}</Text>
        </Alert>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="Email"
            type="email"
            required
            data-autofocus
            error={errors.email?.message}
            {...register('email')}
          />
          <TextInput label="Name" required error={errors.name?.message} {...register('name')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: licenses.length > 0 ? 2 : 1 }} spacing="md">
          <Controller
            control={control}
            name="role"
            render={({ field }) => (
              <RoleSelect
                roles={roles}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={errors.role?.message}
              />
            )}
          />
          {licenses.length > 0 && (
            <Controller
              control={control}
              name="licenseId"
              render={({ field }) => (
                <LicenceSelect
                  label="Licence"
                  licenses={licenses}
                  value={field.value}
                  onChange={(value) => field.onChange(value ?? AUTOMATIC_LICENCE)}
                  withAutomatic
                  disableFull
                  error={errors.licenseId?.message}
                />
              )}
            />
          )}
        </SimpleGrid>
        {licenses.length > 0 && (
          <Text size="xs" c="dimmed" mt={-8}>
            The user takes a seat of the licence. Automatic picks the first licence with a free seat.
          </Text>
        )}
        {makingOwner && (
          <OwnerChangeNotice organizationName={organization.name} currentOwner={organization.adminName} />
        )}
        <DialogActions
          onCancel={onClose}
          busy={isSubmitting}
          submitLabel={makingOwner ? 'Add as owner' : 'Add user'}
        />
      </Stack>
    </form>
  );
}
