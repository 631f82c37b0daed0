import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';
import { redactUrl } from './log-redaction';

/**
 * The request log: one line a request, once it is answered, where Fastify's own writes two (one when the
 * request comes in, one when it is answered, each with the whole request). What an operator reads: the
 * method, the route, the URL as a log may keep it (log-redaction.ts), the status and the time taken in ms, at
 * `info` (a failed answer at `error`, with its error), with the request's `reqId`, which the error handler's
 * lines of the same request carry too. Its cost is measured by bench/reads.ts (decision 002).
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const log = reply.log as Partial<Logger>;
    // No logger (`logger: false`, the tests): Fastify's stand-in has no levels and writes nothing.
    if (typeof log.isLevelEnabled !== 'function') return;
    if (!error && !log.isLevelEnabled('info')) return;
    const line = {
      method: request.method,
      route: request.routeOptions.url,
      url: redactUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
