import { PURCHASE_ORDER_MAX } from '@allot/domain/invoices';
import { TextInput, type TextInputProps } from '@mantine/core';

/** The buyer's purchase-order number (CONTRACT §7): optional, shown on the invoice and in its mail. */
export function PurchaseOrderInput(props: TextInputProps & { name: string }) {
  return (
    <TextInput
      label="Purchase order number"
      description="Optional: your organization’s PO number, printed on the invoice."
      maxLength={PURCHASE_ORDER_MAX}
      autoComplete="off"
      {...props}
    />
  );
}
