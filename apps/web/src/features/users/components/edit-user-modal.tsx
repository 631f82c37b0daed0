import { emailSchema, type OrganizationUser, userNameSchema } from '@allot/domain/users';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock, IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { applyServerErrors } from '../../../lib/form-errors';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { useUserEditRights } from '../api/get-user-edit-rights';
import { useUpdateUser } from '../api/update-user';

const schema = z.object({ name: userNameSchema, email: emailSchema });
type Values = z.infer<typeof schema>;
const FIELDS = ['name', 'email'] as const;

/** The only language of the panel (spec §1). */
const LOCALE_LABEL = 'English (US)';

interface EditUserModalProps {
  /** The user to edit; null keeps the dialog closed. */
  user: OrganizationUser | null;
  onClose: () => void;
}

/** An email change waiting for its code (CONTRACT §3). */
function PendingEmailNotice({ email }: { email: string }) {
  const { emailChange } = useMailWords();
  return (
    <Alert variant="light" color="blue" icon={<IconMailForward size={18} aria-hidden="true" />} p="sm">
      Email change pending: <strong>{email}</strong>. {emailChange.pending}
    </Alert>
  );
}

/** Edit name and email (POST /api/user/{id}/update); the locale is en-us, shown but fixed. */
export function EditUserModal({ user, onClose }: EditUserModalProps) {
  return (
    <Modal
      opened={user !== null}
      onClose={onClose}
      title={user ? `Edit ${user.name}` : 'Edit user'}
      size="md"
      centered
    >
      {user && <EditUserForm key={user.id} user={user} onClose={onClose} />}
    </Modal>
  );
}

function EditUserForm({ user, onClose }: { user: OrganizationUser; onClose: () => void }) {
  const update = useUpdateUser();
  const { emailChange } = useMailWords();
  // Asked first, so that the form offers only what the server accepts from this caller: an account that
  // belongs to organizations the caller does not manage keeps its name and email; one the caller does not
  // outrank everywhere keeps its email; an invitation keeps the address it went to.
  const rights = useUserEditRights(user.id);
  const nameLocked = rights.data?.canChangeName === false;
  const invited = user.status === 'pending';
  const emailLocked = invited || nameLocked || rights.data?.canChangeEmail === false;
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { name: user.name, email: user.email },
  });

  async function submit(values: Values) {
    setFormError(null);
    try {
      const saved = await update.mutateAsync({ id: user.id, ...values, locale: 'en-us' });
      const asked =
        saved.pendingEmail && saved.pendingEmail !== user.pendingEmail ? saved.pendingEmail : null;
      notifications.show(
        asked
          ? { color: 'blue', ...emailChange.asked(asked, saved.email), autoClose: 10_000 }
          : { color: 'green', title: 'Changes saved', message: `${values.name} was updated.` },
      );
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
    <form noValidate onSubmit={handleSubmit(submit)} aria-label="Edit user">
      <Stack gap="md">
        {formError && <FormAlert title="Not saved">{formError}</FormAlert>}
        {rights.isError && (
          <FormAlert title="What you may change could not be checked">{errorText(rights.error)}</FormAlert>
        )}
        {nameLocked && (
          <Alert variant="light" color="gray" icon={<IconLock size={18} aria-hidden="true" />} p="sm">
            {rights.data?.reason}
          </Alert>
        )}
        <TextInput
          label="Name"
          required
          data-autofocus
          readOnly={nameLocked}
          variant={nameLocked ? 'filled' : 'default'}
          error={errors.name?.message}
          {...register('name')}
        />
        <TextInput
          label="Email"
          type="email"
          required
          readOnly={emailLocked}
          variant={emailLocked ? 'filled' : 'default'}
          description={
            invited
              ? 'The invitation went to this address. To use another, cancel the invitation and invite that one.'
              : emailLocked && !nameLocked
                ? rights.data?.reason
                : emailChange.note
          }
          error={errors.email?.message}
          {...register('email')}
        />
        {user.pendingEmail && <PendingEmailNotice email={user.pendingEmail} />}
        <TextInput
          label="Language"
          value={LOCALE_LABEL}
          readOnly
          disabled
          description="The panel and its emails are in English (US) only."
        />
        <DialogActions
          onCancel={onClose}
          busy={isSubmitting}
          submitLabel="Save changes"
          submitDisabled={!isDirty || !rights.isSuccess || nameLocked}
        />
      </Stack>
    </form>
  );
}
