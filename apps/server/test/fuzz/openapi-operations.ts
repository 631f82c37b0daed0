import type { App } from '../../src/app';
import { INTEGRATION_KEY_SCHEME } from '../../src/http/openapi';

/** The part of a JSON Schema (as @fastify/swagger writes it) that requests are generated from. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  format?: string;
  $ref?: string;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As the document writes it: `/api/organization/{id}`. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  /** Header parameters (an `Idempotency-Key`). */
  headers: { name: string; schema: JsonSchema; required: boolean }[];
  /** With the document's named components in place of their `$ref`. */
  body: JsonSchema | null;
  /** No bearer token needed (the document lists no security for it). */
  public: boolean;
  /** Takes an integration key instead of a session token (CONTRACT §9). */
  takesKey: boolean;
}

interface DocOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, unknown>[];
}

/**
 * A schema with every `$ref` to a component replaced by the component, so that the requests are built from
 * what the operation takes (a named body is a `$ref` in the document). A component met again inside itself
 * stays an empty schema.
 */
function resolved(schema: unknown, components: Record<string, unknown>, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => resolved(s, components, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as JsonSchema).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    if (seen.includes(name)) return {};
    return resolved(components[name] ?? {}, components, [...seen, name]);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, resolved(v, components, seen)]));
}

/** Every operation of the app's own OpenAPI document: endpoints added later are fuzzed without a change here. */
export async function operationsOf(app: App): Promise<Operation[]> {
  await app.ready();
  const document = app.swagger() as {
    paths: Record<string, Record<string, DocOperation>>;
    components?: { schemas?: Record<string, unknown> };
  };
  const components = document.components?.schemas ?? {};
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? { type: 'string' } })),
        headers: parameters
          .filter((p) => p.in === 'header')
          .map((p) => ({
            name: p.name,
            schema: p.schema ?? { type: 'string' },
            required: p.required === true,
          })),
        body: (resolved(operation.requestBody?.content?.['application/json']?.schema, components) ??
          null) as JsonSchema | null,
        public: !operation.security || operation.security.length === 0,
        takesKey: (operation.security ?? []).some((alternative) => INTEGRATION_KEY_SCHEME in alternative),
      });
    }
  }
  return operations;
}
