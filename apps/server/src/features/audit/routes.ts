import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

/** The audit log, its CSV export, and the credit log's CSV export (CONTRACT §10; needs view_audit_logs). */
export function auditRoutes(_db: Db): FastifyPluginAsyncZod {
  return async () => {};
}
