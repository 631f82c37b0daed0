import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Every answer the API test suites receive, checked against the OpenAPI document the server serves:
 * a status the operation does not document, or a body its schema refuses, is a drift between the
 * server and the document. Collected while the tests run; `createTestApp`'s close() fails the file.
 */

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

const DOCUMENT_ID = 'https://allot.test/openapi.json';

/** `$ref: '#/components/…'` of a response schema, pointed at the document added to ajv. */
function anchored(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anchored);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? [key, `${DOCUMENT_ID}${value}`]
        : [key, anchored(value)],
    ),
  );
}

/** `/api/organization/:id/users` → `/api/organization/{id}/users`. */
const documentPath = (routeUrl: string) => routeUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

export class ResponseContract {
  readonly violations: string[] = [];
  private ajv: Ajv2020 | undefined;
  private document: Document | undefined;
  private readonly validators = new Map<string, ValidateFunction | null>();

  constructor(private readonly app: FastifyInstance) {}

  /** Adds the hook; the document is read on the first answer (the app is ready by then). */
  attach() {
    this.app.addHook('onSend', async (request, reply, payload) => {
      const routeUrl = request.routeOptions.url;
      if (!routeUrl?.startsWith('/api/') || routeUrl.startsWith('/api/docs')) return payload;
      const at = `${request.method} ${routeUrl}`;
      const operation = this.operation(request.method, routeUrl);
      if (!operation) {
        this.violations.push(`${at}: not in the document`);
        return payload;
      }
      const status = String(reply.statusCode);
      const validate = this.validator(at, status, operation);
      if (validate === undefined) {
        this.violations.push(`${at} answered ${status}, which the document does not list`);
        return payload;
      }
      if (validate === null || typeof payload !== 'string') return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        this.violations.push(`${at} ${status}: the body is not JSON`);
        return payload;
      }
      if (!validate(body)) {
        const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
        this.violations.push(`${at} ${status}: ${problems.join('; ')} in ${payload.slice(0, 300)}`);
      }
      return payload;
    });
  }

  private operation(method: string, routeUrl: string): Operation | undefined {
    try {
      this.document ??= this.app.swagger() as unknown as Document;
    } catch (error) {
      this.violations.push(`the document cannot be built: ${(error as Error).message}`);
      return undefined;
    }
    return this.document.paths[documentPath(routeUrl)]?.[method.toLowerCase()];
  }

  /** undefined: the status is not documented; null: documented without a JSON body. */
  private validator(at: string, status: string, operation: Operation): ValidateFunction | null | undefined {
    const response = operation.responses?.[status];
    if (!response) return undefined;
    const key = `${at} ${status}`;
    if (!this.validators.has(key)) {
      const schema = response.content?.['application/json']?.schema;
      this.validators.set(key, schema ? this.compiler().compile(anchored(schema) as object) : null);
    }
    return this.validators.get(key) ?? null;
  }

  private compiler(): Ajv2020 {
    if (!this.ajv) {
      this.ajv = new Ajv2020({ allErrors: true, strict: false });
      // ajv-formats is CommonJS: its function is the default export, or that export's `default`.
      const withFormats = (addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats;
      withFormats(this.ajv);
      this.ajv.addSchema({ $id: DOCUMENT_ID, components: this.document?.components ?? {} });
    }
    return this.ajv;
  }
}
