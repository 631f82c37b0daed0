import { errorBodySchema } from '@allot/domain/errors';
import fastifySwagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document at /api/docs/json, built from the routes' zod schemas (docs/decisions/008-api-document.md).
 * Routes give their operationId, tag, summary, description (with the permission) and their own error
 * statuses; this module adds what every route shares, from the route itself, so it cannot drift:
 * `security: []` on the public calls (route config `public`), the `integrationKey` scheme on the integration
 * calls (route config `integration`, unless the route names its own `security`) with the permission sentence
 * of a key in their description, 401 on the others, 400 where
 * the call takes input, 409 (colliding writes), 413 and 415 where it takes a body, 503 (no database) on all.
 */

const TAGS = [
  {
    name: 'auth',
    description: 'Sign in and out, verification, password reset, invitations and email changes',
  },
  { name: 'organizations', description: 'The hierarchy of organizations' },
  { name: 'users', description: 'Members of organizations, their roles and licence seats, imports' },
  {
    name: 'credits',
    description: 'AI credits: moves between pools, organizations and people, and the credit log',
  },
  {
    name: 'requests',
    description:
      'Requests up the tree: an organization asks the one above it for credits or seats, the admins there approve or decline',
  },
  {
    name: 'integration',
    description:
      'The classroom product’s side: integration keys and the daily limit (panel calls), and the entitlement and consumption calls that take an integration key',
  },
  {
    name: 'insights',
    description: 'Credit use over time and its forecast, seat use, low-balance alert thresholds',
  },
  { name: 'health', description: 'Liveness' },
  {
    name: 'public-config',
    description: 'What the operator publishes: the support address, terms and privacy',
  },
];

/** An OpenAPI Example Object: what the documentation page shows under the example's summary. */
export interface NamedExample {
  summary: string;
  value: unknown;
}

/**
 * A route's examples (its schema's `examples`): of the request body, and of answers by status. The document
 * shows them as the media type's `examples`; `npm run lint:api` checks each against its schema.
 */
export interface OperationExamples {
  body?: Record<string, NamedExample>;
  responses?: Record<number, Record<string, NamedExample>>;
}

declare module 'fastify' {
  interface FastifySchema {
    examples?: OperationExamples;
  }
}

/** The security scheme of the integration calls (CONTRACT §9); every other call takes `bearer`. */
export const INTEGRATION_KEY_SCHEME = 'integrationKey';

/** What each error status means, as the document says it. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'The input is not valid: `details.fields` maps each field (dotted path) to its message.',
  '401':
    'No bearer token, or its session ended (an integration key is refused here too: it works on the integration calls only).',
  '402': 'Not enough licence seats.',
  '403': 'The caller may not do this here; the message says why.',
  '404': 'Not found, or not visible to the caller.',
  '409': 'A conflict with the current state, or a change made at the same moment: try again.',
  '413': 'The body is larger than 1 MB (16 MB for an import).',
  '415': 'The body is not JSON.',
  '422': 'A business rule refused the change; the message says which.',
  '429': 'Too many requests; wait and try again.',
  '500': 'An unexpected error; nothing was changed.',
  '503':
    'The database could not be reached for a moment (a restart, a failover): wait the seconds of `Retry-After` and send the request again. Nothing was changed, unless the message says the connection was lost while the change was being saved: then send a credit move again with the same `Idempotency-Key` (it is never applied twice), and check anything else before repeating it.',
};

/** Where the integration calls' errors mean something else than the panel's. */
const KEY_CALL_ERROR_DESCRIPTIONS: Record<string, string> = {
  '401':
    'No integration key, a key that is revoked or unknown, or a session token (these calls take an integration key only).',
  '429': 'Too many requests with this integration key; wait the seconds of `Retry-After` and try again.',
};

const SUCCESS_DESCRIPTIONS: Record<string, string> = { '200': 'OK', '201': 'Created' };

type RouteSchema = Record<string, unknown> & { response?: Record<string, unknown> };

const withDefaultErrors = (schema: RouteSchema, isPublic: boolean, method: string): RouteSchema => {
  const response = { ...schema.response };
  const add = (status: number) => {
    response[status] ??= errorBodySchema;
  };
  if (schema.body || schema.querystring || schema.params || schema.headers) add(400);
  if (!isPublic) add(401);
  if (method !== 'GET') add(409);
  // Every call reads the database: one it cannot reach is a 503 with Retry-After (db/database-unavailable.ts).
  add(503);
  if (schema.body) {
    add(413);
    add(415);
  }
  return { ...schema, response };
};

/** What an integration call needs, as every operation's description says its permission. */
const KEY_PERMISSION =
  'Permission: an integration key (`allot_sk_…`), acting in its organization and every organization below it; a session token is `401`.';

const withKeyPermission = (schema: RouteSchema): RouteSchema => {
  const description = typeof schema.description === 'string' ? schema.description : '';
  return description.includes('Permission:')
    ? schema
    : { ...schema, description: `${description} ${KEY_PERMISSION}`.trim() };
};

/** Carries a route's examples to `finishDocument` (@fastify/swagger copies `x-` keys onto the operation). */
const EXAMPLES_KEY = 'x-allot-examples';

/** Per route: the zod schemas as JSON schemas, the shared errors, examples, and the route's security. */
const documentRoute: SwaggerTransform = (input) => {
  const { route, url } = input;
  if (!url.startsWith('/api/')) return { schema: { hide: true }, url };
  const { examples, ...schema } = (input.schema ?? {}) as RouteSchema & { examples?: OperationExamples };
  if (schema.hide) return { schema, url };
  const method = String(route.method);
  if (!schema.operationId) throw new Error(`${method} ${url} has no operationId`);
  const isPublic = route.config?.public === true;
  const takesKey = route.config?.integration === true;
  const transformed = jsonSchemaTransform({
    ...input,
    schema: withDefaultErrors(takesKey ? withKeyPermission(schema) : schema, isPublic, method) as never,
  }) as { schema: Record<string, unknown>; url: string };
  // A route's own `security` stays as it is; otherwise public calls need nothing and integration calls a key.
  const security = schema.security
    ? {}
    : isPublic
      ? { security: [] }
      : takesKey
        ? { security: [{ [INTEGRATION_KEY_SCHEME]: [] }] }
        : {};
  return {
    ...transformed,
    schema: { ...transformed.schema, ...security, ...(examples ? { [EXAMPLES_KEY]: examples } : {}) },
  };
};

type Media = { schema?: unknown; examples?: Record<string, NamedExample> };
type Operation = {
  security?: Record<string, unknown>[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
  [EXAMPLES_KEY]?: OperationExamples;
};

/** A route's examples, where the document shows them: the JSON media type of its body and of its answers. */
const placeExamples = (operation: Operation) => {
  const examples = operation[EXAMPLES_KEY];
  if (!examples) return;
  delete operation[EXAMPLES_KEY];
  const json = (media: { content?: Record<string, Media> } | undefined, at: string) => {
    const found = media?.content?.['application/json'];
    if (!found) throw new Error(`examples of ${at}, which has no JSON schema`);
    return found;
  };
  if (examples.body) json(operation.requestBody, 'a body').examples = examples.body;
  for (const [status, named] of Object.entries(examples.responses ?? {})) {
    json(operation.responses?.[status], `answer ${status}`).examples = named;
  }
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown> };
};

/** Names of the components a value refers to, directly. */
const refsIn = (value: unknown, found: Set<string>) => {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/'))
        found.add(child.slice('#/components/schemas/'.length));
      else refsIn(child, found);
    }
  }
};

/** Keeps the components the paths use (zod's registry holds every named schema, in and out). */
const usedComponents = (doc: Doc) => {
  const schemas = doc.components.schemas ?? {};
  const used = new Set<string>();
  refsIn(doc.paths, used);
  const queue = [...used];
  while (queue.length > 0) {
    const more = new Set<string>();
    refsIn(schemas[queue.pop() as string], more);
    for (const name of more) {
      if (!used.has(name)) {
        used.add(name);
        queue.push(name);
      }
    }
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
};

/** The whole document: named components, response descriptions by status. */
const finishDocument: SwaggerTransformObject = (input) => {
  const doc = jsonSchemaTransformObject(input) as unknown as Doc;
  for (const operations of Object.values(doc.paths)) {
    for (const operation of Object.values(operations)) {
      placeExamples(operation);
      const takesKey = operation.security?.some((alternative) => INTEGRATION_KEY_SCHEME in alternative);
      const errors = takesKey
        ? { ...ERROR_DESCRIPTIONS, ...KEY_CALL_ERROR_DESCRIPTIONS }
        : ERROR_DESCRIPTIONS;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description && response.description !== 'Default Response') continue;
        response.description = errors[status] ?? SUCCESS_DESCRIPTIONS[status] ?? 'OK';
      }
    }
  }
  doc.components.schemas = usedComponents(doc);
  return doc as never;
};

export async function registerOpenApi(app: FastifyInstance, publicUrl: string) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Allot API',
        version: '1.0.0',
        description:
          'Licences and AI credits across a hierarchy of organizations. Every call needs `Authorization: Bearer <secToken>` (from `POST /api/auth/login`) unless it says otherwise; the integration calls (`/api/integration/…`) take an integration key instead (`Authorization: Bearer allot_sk_…`). Errors answer `{error, message, details?}`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: publicUrl, description: 'This panel' }],
      tags: TAGS,
      security: [{ bearer: [] }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'The `secToken` of POST /api/auth/login' },
          [INTEGRATION_KEY_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An integration key (`allot_sk_…`), created by an organization’s owner on General information → Integrations. Only on the integration calls, which act inside that organization’s subtree; a key anywhere else, or a session token on them, is `401`.',
          },
        },
      },
    },
    transform: documentRoute,
    transformObject: finishDocument,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
}
