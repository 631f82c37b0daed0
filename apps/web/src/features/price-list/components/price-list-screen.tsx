import { MAX_CREDIT_PACKS, type PriceList } from '@allot/domain/invoices';
import { LICENSE_TYPE_LABEL } from '@allot/domain/organizations';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Container,
  Group,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, type Path, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { FormAlert } from '../../../components/form-alert';
import { LoadError } from '../../../components/load-error';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSession } from '../../../lib/session';
import { usePriceList } from '../api/get-price-list';
import { useUpdatePriceList } from '../api/update-price-list';
import { type PriceListValues, priceListFormSchema, toFormValues } from '../forms/price-list-form';

/**
 * The price list (CONTRACT §7, decision 010): what new invoices cost. Read by anyone signed in (the invoice
 * dialogs show it); changed by system admins here (docs/decisions/011-licences-screen.md).
 */
export function PriceListScreen() {
  useDocumentTitle('Price list · Allot');
  const session = useSession();
  const mayEdit = session.role === 'system_admin';
  const { data, isPending, isError, error, refetch, isRefetching } = usePriceList();

  return (
    <Container size="md" w="100%" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Price list
          </Title>
          <Text c="dimmed" size="sm">
            What new invoices cost: a licence seat per month for each licence type, and the credit packs.
            Invoices already created keep their amounts.
          </Text>
        </Stack>
        {!mayEdit && (
          <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden="true" />}>
            Only a system admin can change the price list.
          </Alert>
        )}
        {isPending ? (
          <Stack gap="md" aria-busy="true" aria-label="Loading the price list">
            <Skeleton height={90} />
            <Skeleton height={260} />
            <Skeleton height={200} />
          </Stack>
        ) : isError ? (
          <LoadError
            title="The price list could not be loaded"
            error={error}
            onRetry={() => void refetch()}
            retrying={isRefetching}
          />
        ) : (
          // Mounted afresh when the saved list comes back, so that the form starts from it.
          <PriceListForm key={JSON.stringify(data)} list={data} readOnly={!mayEdit} />
        )}
      </Stack>
    </Container>
  );
}

function PriceListForm({ list, readOnly }: { list: PriceList; readOnly: boolean }) {
  const update = useUpdatePriceList();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<PriceListValues, unknown, PriceList>({
    resolver: zodResolver(priceListFormSchema),
    defaultValues: toFormValues(list),
  });
  const {
    control,
    register,
    handleSubmit,
    setError,
    getFieldState,
    formState: { isSubmitting, isDirty, errors },
  } = form;
  const packs = useFieldArray({ control, name: 'creditPacks' });
  const currency = useWatch({ control, name: 'currency' }).trim().toUpperCase() || 'USD';
  const fieldError = (name: Path<PriceListValues>) => getFieldState(name, form.formState).error?.message;

  async function submit(values: PriceList) {
    setFormError(null);
    try {
      await update.mutateAsync(values);
      notifications.show({
        color: 'green',
        title: 'Price list saved',
        message: 'New invoices are priced from it; invoices already created keep their amounts.',
      });
    } catch (cause) {
      // The server's field errors name the API's paths, which are the form's field names.
      const current = form.getValues();
      const known = [
        'currency',
        'creditPacks',
        ...current.licenses.map((_, i) => `licenses.${i}.pricePerSeatMonth` as const),
        ...current.creditPacks.flatMap((_, i) => [
          `creditPacks.${i}.credits` as const,
          `creditPacks.${i}.price` as const,
        ]),
      ] satisfies Path<PriceListValues>[];
      setFormError(applyServerErrors(cause, known, (field, message) => setError(field, { message })));
    }
  }

  return (
    <form noValidate aria-label="Price list" onSubmit={handleSubmit(submit)}>
      <Stack gap="lg">
        {formError && <FormAlert title="Not saved">{formError}</FormAlert>}
        <Card>
          <TextInput
            label="Currency"
            description="The three-letter code of every amount, such as USD or EUR."
            maw={260}
            maxLength={3}
            autoComplete="off"
            readOnly={readOnly}
            variant={readOnly ? 'filled' : 'default'}
            error={errors.currency?.message}
            {...register('currency')}
          />
        </Card>

        <Card component="section" aria-labelledby="licence-prices-heading">
          <Title order={2} fz="h4" id="licence-prices-heading" mb={4}>
            Licences
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            An invoice for a licence costs seats × months × the price of a seat per month.
          </Text>
          <Table verticalSpacing="sm" aria-label="Licence prices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Licence type</Table.Th>
                <Table.Th w={260}>Price per seat per month ({currency})</Table.Th>
                <Table.Th w={140}>Free tier</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.licenses.map((price, index) => {
                const label = LICENSE_TYPE_LABEL[price.licenseType];
                return (
                  <Table.Tr key={price.licenseType}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {label}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={`${label}: price per seat per month`}
                        inputMode="decimal"
                        autoComplete="off"
                        readOnly={readOnly}
                        variant={readOnly ? 'filled' : 'default'}
                        styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
                        error={fieldError(`licenses.${index}.pricePerSeatMonth`)}
                        {...register(`licenses.${index}.pricePerSeatMonth`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Controller
                        control={control}
                        name={`licenses.${index}.hasFreeTier`}
                        render={({ field }) => (
                          <Switch
                            aria-label={`${label}: free tier`}
                            checked={field.value}
                            onChange={(event) => field.onChange(event.currentTarget.checked)}
                            onBlur={field.onBlur}
                            ref={field.ref}
                            disabled={readOnly}
                          />
                        )}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Card>

        <Card component="section" aria-labelledby="credit-packs-heading">
          <Group justify="space-between" align="flex-start" mb="sm">
            <Stack gap={4}>
              <Title order={2} fz="h4" id="credit-packs-heading">
                Credit packs
              </Title>
              <Text size="sm" c="dimmed">
                The packs an organization can buy on its General information screen.
              </Text>
            </Stack>
            {!readOnly && (
              <Button
                variant="default"
                leftSection={<IconPlus size={16} aria-hidden="true" />}
                disabled={packs.fields.length >= MAX_CREDIT_PACKS}
                onClick={() => packs.append({ credits: '', price: '' }, { shouldFocus: true })}
              >
                Add credit pack
              </Button>
            )}
          </Group>
          {packs.fields.length === 0 ? (
            <Text size="sm" c="dimmed" py="sm">
              No credit packs: credits cannot be bought until one is added.
            </Text>
          ) : (
            <Table verticalSpacing="sm" aria-label="Credit packs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Credits</Table.Th>
                  <Table.Th w={260}>Price ({currency})</Table.Th>
                  <Table.Th w={60}>
                    <VisuallyHidden>Remove</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {packs.fields.map((field, index) => (
                  <Table.Tr key={field.id}>
                    <Table.Td>
                      <TextInput
                        aria-label={`Pack ${index + 1}: credits`}
                        inputMode="numeric"
                        autoComplete="off"
                        readOnly={readOnly}
                        variant={readOnly ? 'filled' : 'default'}
                        styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
                        error={fieldError(`creditPacks.${index}.credits`)}
                        {...register(`creditPacks.${index}.credits`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={`Pack ${index + 1}: price`}
                        inputMode="decimal"
                        autoComplete="off"
                        readOnly={readOnly}
                        variant={readOnly ? 'filled' : 'default'}
                        styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
                        error={fieldError(`creditPacks.${index}.price`)}
                        {...register(`creditPacks.${index}.price`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      {!readOnly && (
                        <Tooltip label="Remove this pack">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Remove pack ${index + 1}`}
                            onClick={() => packs.remove(index)}
                          >
                            <IconTrash size={18} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {errors.creditPacks?.root?.message || errors.creditPacks?.message ? (
            <Text size="sm" c="red.8" mt="xs" role="alert">
              {errors.creditPacks?.root?.message ?? errors.creditPacks?.message}
            </Text>
          ) : null}
        </Card>

        {!readOnly && (
          <Group justify="flex-end">
            <Button
              variant="default"
              disabled={!isDirty || isSubmitting}
              onClick={() => {
                setFormError(null);
                form.reset(toFormValues(list));
              }}
            >
              Discard changes
            </Button>
            <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
              Save price list
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
