import type { FastifyInstance } from 'fastify';
import { httpDuration, httpRequests, rateLimitRefusals } from '../lib/metrics';

/** Counts and times every answer by its route's pattern (never its URL: ids would make a series each). */
export function registerRequestMetrics(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) rateLimitRefusals.inc({ route });
  });
}
