import {
  AUDIT_ACTIONS,
  auditLogExportQuerySchema,
  auditLogPageSchema,
  auditLogQuerySchema,
} from '@allot/domain/audit';
import { errorBodySchema } from '@allot/domain/errors';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../http/authenticate';
import { csvFileName, sendCsv } from '../../http/csv-download';
import { replicaReads } from '../../http/replica-reads';
import { exportAuditLog } from './export-audit-log';
import { listAuditLog } from './list-audit-log';

const tags = ['audit'];
const PERMISSION = 'Permission: `view_audit_logs` on the organization.';
const FILTERS = `Filters: \`actorId\` (who made the change), \`action\` (repeatable: ${AUDIT_ACTIONS.map((a) => `\`${a}\``).join(', ')}), \`from\` and \`to\` (UTC days \`YYYY-MM-DD\`, both included), \`organizationId\` (one organization of the subtree).`;

/** The audit log and its CSV export (CONTRACT §10; needs view_audit_logs), read where a replica may answer. */
export function auditRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/organization/:id/audit-log',
      {
        schema: {
          operationId: 'listAuditLog',
          tags,
          summary: 'Read the audit log of an organization',
          description: `Every change made in the organization and in the organizations below it (also those deleted since), newest first: who, when, what, before and after. Pass \`nextPageToken\` as \`pageToken\` for the next page. ${FILTERS} ${PERMISSION}`,
          params: organizationIdParamsSchema,
          querystring: auditLogQuerySchema,
          response: { 200: auditLogPageSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        listAuditLog(await replicaReads(request), authOf(request), request.params.id, request.query),
    );

    app.get(
      '/api/organization/:id/audit-log/export',
      {
        schema: {
          operationId: 'exportAuditLog',
          tags,
          summary: 'Export the audit log as CSV',
          description: `A CSV file (streamed) with a header row, then exactly the entries the same filters list, every page, newest first; \`before\`/\`after\` are JSON. ${FILTERS} ${PERMISSION}`,
          params: organizationIdParamsSchema,
          querystring: auditLogExportQuerySchema,
          response: {
            200: { description: 'The CSV file.', content: { 'text/csv': { schema: z.string() } } },
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        sendCsv(
          reply,
          csvFileName('audit-log'),
          await exportAuditLog(
            await replicaReads(request),
            authOf(request),
            request.params.id,
            request.query,
          ),
        ),
    );
  };
}
