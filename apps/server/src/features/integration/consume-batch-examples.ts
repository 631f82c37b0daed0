import {
  type ConsumeBatchRequest,
  type ConsumeBatchResponse,
  INTEGRATION_MSG,
} from '@allot/domain/integration';
import { APP_MSG } from '@allot/domain/messages';
import type { OperationExamples } from '../../http/openapi';

/*
 * The API document's examples of POST /api/integration/consume/batch: one school where Ana has 5 credits of
 * her own and the shared pool 40, Ben none of his own; Carol is not in the key's subtree. Typed by the
 * domain's schemas, and checked against the document's schemas by `npm run lint:api`.
 */

const request: ConsumeBatchRequest = {
  items: [
    { email: 'ana@school.example', credits: 3, reference: 'lesson-101', description: 'Essay feedback' },
    { email: 'ana@school.example', credits: 10, reference: 'lesson-102' },
    { email: 'ben@school.example', credits: 50, reference: 'lesson-103', licenseType: 'chorus' },
    { email: 'carol@elsewhere.example', credits: 1, reference: 'lesson-104' },
  ],
};

const response: ConsumeBatchResponse = {
  results: [
    {
      reference: 'lesson-101',
      status: 'consumed',
      consumed: 3,
      fromOwn: 3,
      fromShared: 0,
      balances: { own: 2, shared: 40 },
    },
    {
      reference: 'lesson-102',
      status: 'consumed',
      consumed: 10,
      fromOwn: 2,
      fromShared: 8,
      balances: { own: 0, shared: 32 },
    },
    {
      reference: 'lesson-103',
      status: 'refused',
      consumed: 0,
      fromOwn: 0,
      fromShared: 0,
      balances: null,
      error: 'insufficient_credits',
      message: INTEGRATION_MSG.insufficientCredits(32),
      details: { available: 32 },
    },
    {
      reference: 'lesson-104',
      status: 'refused',
      consumed: 0,
      fromOwn: 0,
      fromShared: 0,
      balances: null,
      error: 'not_found',
      message: APP_MSG.notFound,
    },
  ],
};

export const CONSUME_BATCH_EXAMPLES: OperationExamples = {
  body: {
    mixed: {
      summary: 'Four consumptions: two of one teacher, one too large, one outside the subtree',
      value: request,
    },
  },
  responses: {
    200: {
      mixed: {
        summary: 'Each item consumed or refused on its own; the second drew on the pool after the first',
        value: response,
      },
    },
  },
};
