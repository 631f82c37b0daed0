import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import { readsRouted, replicaFallbacks } from '../lib/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the reads that tolerate a replica run (db/read-replica.ts); the primary without one. */
    readRouting: ReadRouting;
  }
  interface FastifyRequest {
    /** This request's handle for those reads, once asked for (`replicaReads`). */
    replicaReads: Promise<Db> | null;
  }
}

/** The routing of this app's reads, which counts where they went in the metrics (lib/metrics.ts). */
export function registerReplicaReads(app: FastifyInstance, routing: ReadRouting) {
  routing.reportTo({
    routed: (target, reason) => readsRouted.inc({ target, reason }),
    fellBack: () => replicaFallbacks.inc(),
  });
  app.decorate('readRouting', routing);
  app.decorateRequest('replicaReads', null);
}

/**
 * The database a route's reads run on when they tolerate a replica (docs/decisions/018-read-replica.md): the
 * replica when it has replayed everything the primary had committed when first asked in this request, else the
 * primary. Only for what a person reads to look (lists, logs, figures, an organization's page); what decides a
 * write, and every write, uses the primary (the routes' `db`).
 */
export function replicaReads(request: FastifyRequest): Promise<Db> {
  request.replicaReads ??= request.server.readRouting.reads();
  return request.replicaReads;
}
