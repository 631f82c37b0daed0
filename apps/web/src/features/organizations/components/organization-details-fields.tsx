import type { OrganizationType } from '@allot/domain/organizations';
import { SimpleGrid, TextInput } from '@mantine/core';
import { Controller, useFormContext } from 'react-hook-form';
import { OrganizationTypeSelect } from './organization-type-select';

/** The part of an organization both the create and the edit dialog ask for. */
interface OrganizationDetailsValues {
  name: string;
  type: OrganizationType | undefined;
  phoneNumber: string;
}

/**
 * Name, type and phone number, inside a form whose values include them (wrapped in react-hook-form's
 * FormProvider). `columns`: type and phone side by side (the wider create dialog) or one under the other.
 */
export function OrganizationDetailsFields({ columns = 1 }: { columns?: 1 | 2 }) {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<OrganizationDetailsValues>();
  const typeAndPhone = (
    <>
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
    </>
  );
  return (
    <>
      <TextInput label="Name" required data-autofocus error={errors.name?.message} {...register('name')} />
      {columns === 2 ? (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          {typeAndPhone}
        </SimpleGrid>
      ) : (
        typeAndPhone
      )}
    </>
  );
}
