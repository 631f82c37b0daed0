import { errorBodySchema } from '@allot/domain/errors';
import {
  type ConsumeBatchResponse,
  consumeBatchRequestSchema,
  consumeBatchResponseSchema,
  consumeRequestSchema,
  consumeResponseSchema,
  entitlementQuerySchema,
  entitlementSchema,
  MAX_CONSUME_BATCH_ITEMS,
  memberEntitlementQuerySchema,
} from '@allot/domain/integration';
import { idSchema } from '@allot/domain/text';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../http/app-error';
import { authOf, integrationOf } from '../../http/authenticate';
import { answerError } from '../../http/error-handler';
import { type Answer, type IdempotencyRequest, idempotencyOf, replyAnswer } from '../../http/idempotency';
import { writeRoute } from '../../http/write-route';
import { consumptions } from '../../lib/metrics';
import { BatchGate } from './batch-gate';
import { checkEntitlement, checkMemberEntitlement } from './check-entitlement';
import { consumeBatch } from './consume-batch';
import { CONSUME_BATCH_EXAMPLES } from './consume-batch-examples';
import { ConsumeQueue, DEFAULT_CONSUME_TRANSACTIONS } from './consume-queue';
import { refuseUnlessKeyLive } from './key-auth';
import {
  DEFAULT_INTEGRATION_RATE_LIMIT_PER_MINUTE,
  integrationKeyLimiter,
  integrationRateLimitBlock,
  limitIntegrationKey,
} from './key-rate-limit';

const tags = ['integration'];
const security = [{ integrationKey: [] }];

export const IDEMPOTENCY_KEY_REQUIRED =
  'An Idempotency-Key header is required: a new key for each consumption, the same key when a call is sent again.';

/** The consumption calls' `Idempotency-Key`: required (CONTRACT §9). */
const requiredIdempotencyKey = z.object({
  'idempotency-key': z
    .string({ error: IDEMPOTENCY_KEY_REQUIRED })
    .describe(
      'Required. 1–255 printable characters; a repeat with the same key and body answers the first answer',
    ),
});

function requireIdempotency(request: FastifyRequest): IdempotencyRequest {
  const idempotency = idempotencyOf(request);
  if (!idempotency) {
    throw AppError.invalid({ 'Idempotency-Key': IDEMPOTENCY_KEY_REQUIRED }, IDEMPOTENCY_KEY_REQUIRED);
  }
  return idempotency;
}

export interface IntegrationRouteOptions {
  /** Calls one integration key may make in a minute, counted across processes (INTEGRATION_RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute?: number | undefined;
  /** Shared transactions of single consumption calls running at once in this process (consume-queue.ts). */
  consumeTransactions?: number | undefined;
}

const RATE_LIMIT_NOTE = ` Each key may make a limited number of calls a minute (all processes together; \`INTEGRATION_RATE_LIMIT_PER_MINUTE\`, default 6,000): above it \`429 rate_limited\` with \`Retry-After\` (seconds). The count is kept in blocks per server process (a fiftieth of the limit, 1 to 1,000 calls: ${integrationRateLimitBlock(DEFAULT_INTEGRATION_RATE_LIMIT_PER_MINUTE)} by default), so the limit holds to within one block per running process.`;

/** The classroom product's calls (CONTRACT §9): entitlement and consumption, with an integration key. */
/** The metrics' count of consumptions by outcome (lib/metrics.ts), from an answer given now, not replayed. */
function countConsumptions(answer: Answer) {
  if (answer.replayed) return;
  const body = answer.body as Partial<ConsumeBatchResponse> & { error?: string };
  if (Array.isArray(body.results)) {
    for (const r of body.results)
      consumptions.inc({ outcome: r.status === 'consumed' ? 'consumed' : r.error });
  } else {
    consumptions.inc({ outcome: answer.status === 200 ? 'consumed' : (body.error ?? String(answer.status)) });
  }
}

export function integrationRoutes(db: Db, options: IntegrationRouteOptions = {}): FastifyPluginAsyncZod {
  const perMinute = options.rateLimitPerMinute ?? DEFAULT_INTEGRATION_RATE_LIMIT_PER_MINUTE;
  // This process's share of every key's count (one per app: two apps on one database count as two processes).
  const limiter = integrationKeyLimiter(db, perMinute);
  const consumeTransactions = options.consumeTransactions ?? DEFAULT_CONSUME_TRANSACTIONS;
  const singleCalls = new ConsumeQueue(db, consumeTransactions);
  const batchCalls = new BatchGate(consumeTransactions);
  return async (app) => {
    // A call answered from the process's copy of its key (key-auth.ts) and refused before its own statement
    // confirmed the key (a body that is not valid, the rate limit): if the key was revoked meanwhile, the
    // answer is the revoked key's `401`, as it would have been had the key been read for this call.
    app.setErrorHandler(async (error: FastifyError | AppError, request, reply) => {
      const caller = request.integration;
      const unauthorized = error instanceof AppError && error.status === 401;
      if (caller && caller.confirmed === false && !unauthorized) {
        const revoked = await refuseUnlessKeyLive(db, caller).then(
          () => null,
          (refusal: unknown) => (refusal instanceof AppError ? refusal : null),
        );
        if (revoked) return answerError(revoked, request, reply);
      }
      return answerError(error, request, reply);
    });
    // After the authentication hook (the app's): the key is known, the body not read yet.
    app.addHook('onRequest', async (request) => {
      if (!request.routeOptions.config?.integration) return;
      await limitIntegrationKey(limiter, integrationOf(request).keyId);
    });

    app.get(
      '/api/integration/entitlement',
      {
        config: { integration: true },
        schema: {
          operationId: 'checkEntitlement',
          tags,
          security,
          summary: 'May this teacher use the product now?',
          description: `For a teacher in the key’s organization or below (by email): whether they may use the product now, the licence, its expiry, the credits they can spend (own balance and the organization’s shared pool) and, when not entitled, the reasons in the order a person fixes them. A teacher in several organizations of the subtree: \`organizationId\` names one (else \`404\`); without it the answer is for the best of them (entitled first, then the fewest reasons, then by name). An email with no membership or invitation in the subtree is \`404\`.${RATE_LIMIT_NOTE}`,
          querystring: entitlementQuerySchema,
          response: { 200: entitlementSchema, 404: errorBodySchema, 429: errorBodySchema },
        },
      },
      async (request) => checkEntitlement(db, integrationOf(request), request.query),
    );

    app.post(
      '/api/integration/consume',
      {
        config: { integration: true },
        schema: {
          operationId: 'consumeCredits',
          tags,
          security,
          summary: 'Consume a teacher’s credits',
          description: `Draws \`credits\` from the teacher’s own balance first, then from their organization’s shared pool, in one transaction, and answers the balances after. Not enough in both: \`422 insufficient_credits\` with \`details.available\`, nothing taken; above the organization’s daily limit: \`422 daily_limit\`; only invited, or the account not set up (and, with \`licenseType\`, no seat of a live licence of it): \`422 business_rule\` with \`details.reasons\`. A teacher who is a member of several organizations of the subtree needs \`organizationId\` (\`400\` otherwise). The \`Idempotency-Key\` header is required: a repeat answers the first answer (header \`Idempotent-Replayed: true\`); the same key with another body is \`409 idempotency_key_reused\`.${RATE_LIMIT_NOTE}`,
          body: consumeRequestSchema,
          headers: requiredIdempotencyKey,
          response: {
            200: consumeResponseSchema,
            404: errorBodySchema,
            422: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const answer = await singleCalls.consume(
          integrationOf(request),
          request.body,
          requireIdempotency(request),
        );
        countConsumptions(answer);
        return replyAnswer(reply, answer);
      },
    );

    app.post(
      '/api/integration/consume/batch',
      {
        config: { integration: true },
        schema: {
          operationId: 'consumeCreditsBatch',
          tags,
          security,
          summary: 'Consume the credits of many uses at once',
          description: `1 to ${MAX_CONSUME_BATCH_ITEMS} consumptions in one call and one transaction, each as \`POST /api/integration/consume\` takes one. Each item is applied or refused on its own, in the order of \`items\`, as the single call would answer it: an item sees the balances the items before it left, and a refused item takes nothing and does not stop the others. The answer has one result for each item, in the same order: \`status: "consumed"\` with what the single call answers, or \`status: "refused"\` with \`consumed\`, \`fromOwn\` and \`fromShared\` 0, \`balances\` null, and the single call's \`error\`, \`message\` and \`details\` (\`not_found\`, \`invalid_input\` for a teacher in several organizations without \`organizationId\`, \`business_rule\`, \`insufficient_credits\`, \`daily_limit\`). A body that is not a valid batch (no item, more than ${MAX_CONSUME_BATCH_ITEMS}, an item that is not a valid consumption) is \`400\` as a whole, with the items' fields as \`items.<index>.<field>\`, and nothing is taken. One \`Idempotency-Key\` for the whole batch, required: a repeat answers the first answer (header \`Idempotent-Replayed: true\`); the same key with another body is \`409 idempotency_key_reused\`. The rate limit counts a batch as one call.${RATE_LIMIT_NOTE}`,
          body: consumeBatchRequestSchema,
          headers: requiredIdempotencyKey,
          response: { 200: consumeBatchResponseSchema, 429: errorBodySchema },
          examples: CONSUME_BATCH_EXAMPLES,
        },
      },
      async (request, reply) => {
        const caller = integrationOf(request);
        const idempotency = requireIdempotency(request);
        return batchCalls.run(caller.keyId, () =>
          writeRoute(db, request, reply, (tx, key) => consumeBatch(tx, caller, request.body.items, key), {
            idempotent: { callerId: caller.keyId, idempotency },
            answered: countConsumptions,
          }),
        );
      },
    );

    app.get(
      '/api/organization/:id/users/:userId/entitlement',
      {
        schema: {
          operationId: 'checkMemberEntitlement',
          tags,
          summary: 'Why can’t this teacher use the product?',
          description:
            'The entitlement check of the classroom product for one member (or invited person) of the organization, as the key call answers it for this organization: the reasons in the order a person fixes them. `404` when the person is neither a member of it nor invited to it. Permission: `manage_users` on the organization.',
          params: z.object({ id: idSchema, userId: idSchema }),
          querystring: memberEntitlementQuerySchema,
          response: { 200: entitlementSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        checkMemberEntitlement(
          db,
          authOf(request),
          request.params.id,
          request.params.userId,
          request.query.licenseType,
        ),
    );
  };
}
