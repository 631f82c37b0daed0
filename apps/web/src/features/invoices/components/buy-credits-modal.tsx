import { CREDIT_POOLS } from '@allot/domain/credits';
import { DEFAULT_PURCHASE_POOL, formatMoney, type PriceList } from '@allot/domain/invoices';
import { MSG } from '@allot/domain/messages';
import { emailSchema } from '@allot/domain/text';
import { zodResolver } from '@hookform/resolvers/zod';
import { Group, Modal, Radio, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { LoadError } from '../../../components/load-error';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatCount } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useIdempotencyKey } from '../../../lib/use-idempotency-key';
import { PoolField } from '../../credits/components/pool-field';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { usePriceList } from '../../price-list/api/get-price-list';
import { useCreateInvoice } from '../api/create-invoice';
import { AmountSummary } from './amount-summary';
import { CustomerEmailInput } from './customer-email-input';
import { showInvoiceCreated } from './invoice-created-notice';
import { PurchaseOrderInput } from './purchase-order-input';

interface BuyCreditsModalProps {
  opened: boolean;
  onClose: () => void;
  /** `credits`: the pools' balances now, shown on the pool cards. */
  organization: { id: string; name: string; credits?: { shared: number; protected: number } };
}

/**
 * 'Buy more credits' (spec §2): an invoice for one of the price list's credit packs, and the pool the credits go
 * to once it is fulfilled (issue 33: shared unless the buyer chooses otherwise).
 */
export function BuyCreditsModal({ opened, onClose, organization }: BuyCreditsModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Buy more credits" size="lg" centered>
      {opened && <BuyCreditsBody organization={organization} onClose={onClose} />}
    </Modal>
  );
}

function BuyCreditsBody({ organization, onClose }: Omit<BuyCreditsModalProps, 'opened'>) {
  const priceList = usePriceList();
  if (priceList.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the credit packs">
        <Skeleton height={20} width="70%" />
        <SimpleGrid cols={2} spacing="sm">
          <Skeleton height={58} />
          <Skeleton height={58} />
        </SimpleGrid>
        <Skeleton height={56} />
      </Stack>
    );
  }
  if (priceList.isError) {
    return (
      <LoadError
        title="The credit packs could not be loaded"
        error={priceList.error}
        onRetry={() => void priceList.refetch()}
        retrying={priceList.isRefetching}
      />
    );
  }
  if (priceList.data.creditPacks.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No credit packs are for sale at the moment. A system admin adds them on the price list.
      </Text>
    );
  }
  return <BuyCreditsForm organization={organization} list={priceList.data} onClose={onClose} />;
}

const schema = z.object({
  credits: z.string().min(1, MSG.required),
  customerEmail: emailSchema,
  purchaseOrder: z.string().optional(),
  creditPool: z.enum(CREDIT_POOLS),
});
type Values = z.input<typeof schema>;

function BuyCreditsForm({
  organization,
  list,
  onClose,
}: Omit<BuyCreditsModalProps, 'opened'> & { list: PriceList }) {
  const session = useSession();
  const navigate = useNavigate();
  const words = useMailWords();
  const priceList = usePriceList();
  const create = useCreateInvoice();
  const idempotency = useIdempotencyKey();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: {
      credits: String(list.creditPacks[0]?.credits ?? ''),
      customerEmail: session.userEmail ?? '',
      purchaseOrder: '',
      creditPool: DEFAULT_PURCHASE_POOL,
    },
  });
  const credits = Number(useWatch({ control, name: 'credits' }));
  const pack = list.creditPacks.find((p) => p.credits === credits);

  async function submit(values: z.output<typeof schema>) {
    setFailure(null);
    try {
      const input = {
        organizationId: organization.id,
        kind: 'credits' as const,
        credits: Number(values.credits),
        customerEmail: values.customerEmail,
        ...(values.purchaseOrder?.trim() ? { purchaseOrder: values.purchaseOrder.trim() } : {}),
        creditPool: values.creditPool,
      };
      const invoice = await create.mutateAsync({ input, idempotencyKey: idempotency.keyFor(input) });
      showInvoiceCreated(invoice, (path) => void navigate(path), words);
      onClose();
    } catch (error) {
      idempotency.failed(error);
      setFailure(
        applyServerErrors(
          error,
          ['credits', 'customerEmail', 'purchaseOrder', 'creditPool'] as const,
          (field, message) => setError(field, { message }),
        ),
      );
    }
  }

  return (
    <form noValidate aria-label="Buy more credits" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {failure && <FormAlert title="The invoice was not created">{failure}</FormAlert>}
        <Text size="sm">
          AI credits for {organization.name}. An invoice is created for the customer email; once it is paid, a
          system admin fulfils it and the credits arrive in the pool chosen below.
        </Text>
        <Controller
          control={control}
          name="credits"
          render={({ field }) => (
            <Radio.Group
              label="Credit pack"
              required
              value={field.value}
              onChange={field.onChange}
              error={errors.credits?.message}
            >
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" mt={4}>
                {list.creditPacks.map((option) => (
                  <Radio.Card key={option.credits} value={String(option.credits)} px="sm" py={8} radius="md">
                    <Group wrap="nowrap" align="flex-start" gap="sm">
                      <Radio.Indicator mt={2} />
                      <Stack gap={0}>
                        <Text size="sm" fw={600}>
                          {formatCount(option.credits)} credits
                        </Text>
                        <Text size="xs" c="dimmed">
                          {formatMoney(option.price, list.currency)}
                        </Text>
                      </Stack>
                    </Group>
                  </Radio.Card>
                ))}
              </SimpleGrid>
            </Radio.Group>
          )}
        />
        <PoolField
          control={control}
          name="creditPool"
          label="Into the pool"
          description={`Where the credits land in ${organization.name} once the invoice is paid.`}
          {...(organization.credits ? { balances: organization.credits, balanceWord: 'now' as const } : {})}
        />
        <CustomerEmailInput error={errors.customerEmail?.message} {...register('customerEmail')} />
        <PurchaseOrderInput error={errors.purchaseOrder?.message} {...register('purchaseOrder')} />
        <AmountSummary
          priceList={priceList}
          placeholder="Choose a credit pack to see the amount."
          amount={() => pack?.price ?? null}
          breakdown={() => (pack ? `${formatCount(pack.credits)} credits` : null)}
        />
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Create invoice" />
      </Stack>
    </form>
  );
}
