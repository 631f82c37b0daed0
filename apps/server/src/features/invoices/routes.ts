import { errorBodySchema } from '@allot/domain/errors';
import {
  billingQueueQuerySchema,
  createInvoiceRequestSchema,
  fulfilInvoiceRequestSchema,
  invoiceListQuerySchema,
  invoicePageSchema,
  invoiceSchema,
  priceListSchema,
} from '@allot/domain/invoices';
import { MSG } from '@allot/domain/messages';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import { idSchema } from '@allot/domain/text';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { idempotencyHeader } from '../../http/idempotency';
import { replicaReads } from '../../http/replica-reads';
import { writeRoute } from '../../http/write-route';
import type { MailSettings } from '../mail';
import { createInvoice } from './create-invoice';
import { fulfilInvoice, voidInvoice } from './fulfil-invoice';
import { type InvoicePayment, withPayment } from './invoice-payment';
import { type InvoiceRecordPage, listAllInvoices, listInvoices, readInvoice } from './invoice-queries';
import { readPriceList, updatePriceList } from './price-list';

const tags = ['invoices'];
const invoiceIdParams = z.object({ id: idSchema });
const SYSTEM_ADMIN = 'Permission: system admins only (`403` for anyone else who sees the organization).';

/** The price list and invoices (CONTRACT §7, decision 010); every invoice answered with the payment settings. */
export function invoiceRoutes(db: Db, mail: MailSettings, payment: InvoicePayment): FastifyPluginAsyncZod {
  const paid = (record: Parameters<typeof withPayment>[0]) => withPayment(record, payment);
  const paidPage = (page: InvoiceRecordPage) => ({ ...page, data: page.data.map(paid) });
  return async (app) => {
    app.get(
      '/api/invoice/products',
      {
        schema: {
          operationId: 'getPriceList',
          tags,
          summary: 'Read the price list',
          description:
            'Per licence type the price of a seat for a month and whether it has a free tier, and the credit packs; amounts in minor units of `currency`. Permission: any signed-in panel user.',
          response: { 200: priceListSchema },
        },
      },
      async () => readPriceList(db),
    );

    app.put(
      '/api/invoice/products',
      {
        schema: {
          operationId: 'updatePriceList',
          tags,
          summary: 'Change the price list',
          description: `Replaces the prices and credit packs; invoices already created keep their amounts. Permission: system admins only.`,
          body: priceListSchema,
          response: { 200: priceListSchema, 403: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => updatePriceList(tx, authOf(request), request.body)),
    );

    app.post(
      '/api/invoice/create',
      {
        config: {
          messages: {
            invalid: MSG.invoiceInvalid,
            unauthorized: MSG.invoiceNotLoggedIn,
            internal: MSG.invoiceServerError,
          },
        },
        schema: {
          operationId: 'createInvoice',
          tags,
          summary: 'Create an invoice',
          description:
            'For a new licence (`licenseType`, `period`, `usersQuantity`), an extension (`licenseId`, `period`), more seats (`licenseId`, `usersQuantity`) or a credit pack (`credits`, with `creditPool`: the pool the credits go to, `shared` when left out; `400` on `creditPool` for any other kind). The server computes the amount from the price list: seats × months × price per seat per month; an extension pays for every seat it extends (those handed down included), added seats pay for the months left on the licence. Numbered per organization, `INV-{its code}-{0001}`, without gaps; due in 30 days. Mailed to `customerEmail` when that is one of the organization’s owners and admins, or else at most `INVOICE_MAILS_PER_DAY` (20) times a day per organization: beyond that the invoice is still created, with `mailed: false`, and no mail goes out. With an `Idempotency-Key`, a repeat answers the first answer and creates nothing (header `Idempotent-Replayed: true`). Permission: `manage_org_license` (licences) or `transfer_org_credits` (credits) on the organization; `403` (not `404`) for an organization the caller may not buy for, seen or not.',
          body: createInvoiceRequestSchema,
          headers: idempotencyHeader,
          response: { 201: invoiceSchema, 403: errorBodySchema, 500: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx) => createInvoice(tx, authOf(request), request.body, mail, payment),
          { status: 201, idempotent: true },
        ),
    );

    app.get(
      '/api/invoices',
      {
        schema: {
          operationId: 'listAllInvoices',
          tags,
          summary: 'The billing queue: every organization’s invoices',
          description:
            'The invoices of every organization, deleted ones’ included, a page at a time; `status` (`open`, `fulfilled`, `void`) narrows it, `search` matches the start of the invoice number (with or without its `INV-…-` prefix), of the customer’s email or of the purchase-order number (`purchaseOrder`). Permission: system admins only (`403` for anyone else).',
          querystring: billingQueueQuerySchema,
          response: { 200: invoicePageSchema, 403: errorBodySchema },
        },
      },
      async (request) =>
        paidPage(await listAllInvoices(await replicaReads(request), authOf(request), request.query)),
    );

    app.get(
      '/api/organization/:id/invoices',
      {
        schema: {
          operationId: 'listInvoices',
          tags,
          summary: 'List the invoices of an organization',
          description:
            'The organization’s invoices and those of deleted organizations that were below it (`organizationDeleted: true`; invoices outlive their organization). `search` matches the start of the invoice number (with or without its `INV-…-` prefix), of the customer’s email or of the purchase-order number (`purchaseOrder`). Permission: `manage_org_license` on the organization; for a deleted organization, on the nearest live one above it, or a system admin.',
          params: organizationIdParamsSchema,
          querystring: invoiceListQuerySchema,
          response: { 200: invoicePageSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        paidPage(
          await listInvoices(await replicaReads(request), authOf(request), request.params.id, request.query),
        ),
    );

    app.get(
      '/api/invoice/:id',
      {
        schema: {
          operationId: 'getInvoice',
          tags,
          summary: 'Read an invoice',
          description:
            'What its printable page shows. Permission: `manage_org_license` on its organization; once that is deleted, on the nearest live organization above it, or a system admin.',
          params: invoiceIdParams,
          response: { 200: invoiceSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        paid(await readInvoice(await replicaReads(request), authOf(request), request.params.id)),
    );

    app.post(
      '/api/invoice/:id/fulfil',
      {
        schema: {
          operationId: 'fulfilInvoice',
          tags,
          summary: 'Fulfil an invoice',
          description: `Applies the purchase once (a licence created, extended or given seats; or credits into the pool the invoice names, \`creditPool\`: the buyer's choice, the protected pool for invoices made before there was one), in the same transaction, with a log entry naming the invoice; then the invoice is \`fulfilled\`. A fulfilled or void invoice is \`409\` and nothing changes; so is an extension whose licence no longer has the seats it priced, and added seats whose licence no longer has the expiry they were priced up to (void it and create a new one). ${SYSTEM_ADMIN}`,
          params: invoiceIdParams,
          body: fulfilInvoiceRequestSchema,
          response: { 200: invoiceSchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, async (tx) =>
          paid(await fulfilInvoice(tx, authOf(request), request.params.id, request.body.method)),
        ),
    );

    app.post(
      '/api/invoice/:id/void',
      {
        schema: {
          operationId: 'voidInvoice',
          tags,
          summary: 'Void an invoice',
          description: `Only before it is fulfilled (\`409\` otherwise). ${SYSTEM_ADMIN}`,
          params: invoiceIdParams,
          response: { 200: invoiceSchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, async (tx) =>
          paid(await voidInvoice(tx, authOf(request), request.params.id)),
        ),
    );
  };
}
