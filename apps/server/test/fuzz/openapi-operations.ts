import type { App } from '../../src/app';

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
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As the document writes it: `/api/organization/{id}`. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  body: JsonSchema | null;
  /** No bearer token needed (the document lists no security for it). */
  public: boolean;
}

interface DocOperation {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

/** Every operation of the app's own OpenAPI document: endpoints added later are fuzzed without a change here. */
export async function operationsOf(app: App): Promise<Operation[]> {
  await app.ready();
  const document = app.swagger() as { paths: Record<string, Record<string, DocOperation>> };
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
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
        public: !operation.security || operation.security.length === 0,
      });
    }
  }
  return operations;
}
