import { oneTimeCodeSchema } from '@allot/domain/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

const schema = z.object({ code: oneTimeCodeSchema });
type CodeValues = z.infer<typeof schema>;

interface CodeFormProps {
  label: string;
  submitLabel: string;
  /** The caller shows a failure through `alert`. */
  onSubmit: (code: string) => Promise<void>;
  alert?: ReactNode;
  /** Before the field, e.g. the email the code went to. */
  before?: ReactNode;
}

/** One 6-digit code from a mail: numeric keyboard on phones, the browser may fill it from the mail. */
export function CodeForm({ label, submitLabel, onSubmit, alert, before }: CodeFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<CodeValues>({ resolver: zodResolver(schema), defaultValues: { code: '' } });

  return (
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(values.code))} aria-label={submitLabel}>
      <Stack gap="md">
        {alert}
        {before}
        <TextInput
          label={label}
          description="The 6-digit code from the email."
          placeholder="123456"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          styles={{ input: { fontSize: 20, letterSpacing: 6, fontVariantNumeric: 'tabular-nums' } }}
          error={errors.code?.message}
          {...register('code')}
        />
        <Button type="submit" fullWidth loading={isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
