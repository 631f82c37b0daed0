-- CONTRACT §7: the buyer's purchase-order number, shown on the invoice (US districts pay against POs; issue 33).
ALTER TABLE "invoices" ADD COLUMN "purchase_order" text;
