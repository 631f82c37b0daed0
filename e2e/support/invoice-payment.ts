/** The e2e server's INVOICE_PAYEE and INVOICE_PAYMENT_INSTRUCTIONS (global-setup.ts), for the tests to read back. */
export const E2E_INVOICE_PAYEE = 'Allot Learning Ltd';
export const E2E_INVOICE_PAYMENT_INSTRUCTIONS =
  'Bank transfer to IBAN GB33 BUKB 2020 1555 5555 55\nBIC BUKBGB22, reference: the invoice number';
