import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app';
import { sessionFor } from './support/world';

interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security?: unknown[];
  parameters?: { name: string; schema: unknown }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content: Record<string, Media> }>;
}
type Media = { schema: unknown; examples?: Record<string, { summary: string; value: unknown }> };
const DOC_ID = 'https://allot.test/docs-examples.json';
interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown> };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('API documentation and health', () => {
  it('serves the OpenAPI document from the zod schemas, with bearer security', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.servers).toEqual([{ url: TEST_PUBLIC_URL, description: 'This panel' }]);
    const login = doc.paths['/api/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/LoginInput',
    });
    expect(Object.keys(doc.components.schemas.LoginInput.properties)).toEqual(['email', 'password']);
    expect(Object.keys(doc.paths['/api/organization/{id}'].get.responses)).toEqual([
      '200',
      '400',
      '401',
      '404',
      // Issue 30: every operation may meet a database it cannot reach.
      '503',
    ]);
  });

  it('names, tags and describes every operation, with the permission it needs', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDoc>();
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, ...op })),
    );
    expect(operations.length).toBeGreaterThan(35);
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of operations) {
      expect(op.operationId, op.at).toMatch(/^[a-z]+[A-Za-z]*$/);
      expect(op.tags, op.at).toHaveLength(1);
      expect(op.summary, op.at).toBeTruthy();
      expect(op.description, op.at).toMatch(/Permission:|Public|token/);
      for (const [status, answer] of Object.entries(op.responses)) {
        expect(answer.description, `${op.at} ${status}`).not.toBe('Default Response');
        if (Number(status) >= 400 && status !== '503') {
          expect(answer.content['application/json']?.schema, `${op.at} ${status}`).toEqual({
            $ref: '#/components/schemas/ErrorBody',
          });
        }
      }
      // No `security` of its own: the root's bearer. `[]` or an empty alternative: a token is not needed.
      const needsToken =
        op.security === undefined ||
        (op.security.length > 0 && !op.security.some((s) => Object.keys(s as object).length === 0));
      if (needsToken) expect(op.responses['401'], op.at).toBeDefined();
    }
    const publicCalls = operations.filter((op) => op.security?.length === 0).map((op) => op.at);
    expect(publicCalls).toEqual(
      expect.arrayContaining(['POST /api/auth/login', 'POST /api/auth/password/reset', 'GET /api/health']),
    );
    expect(publicCalls).not.toContain('POST /api/auth/logout');
  });

  it('types numbers, formats and the error body, with named components', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDoc>();
    const search = doc.paths['/api/organization/search']?.get;
    const limit = search?.parameters?.find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, unknown> }>;
    expect(schemas.Organization?.properties.id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(schemas.OrganizationSummary?.properties.adminEmail).toMatchObject({
      anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }],
    });
    expect(schemas.License?.properties.expireAt).toMatchObject({ format: 'date-time' });
    expect(schemas.ErrorBody?.properties.details).toMatchObject({
      properties: { fields: { type: 'object', additionalProperties: { type: 'string' } } },
    });
    expect(search?.responses['200']?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/OrganizationSearchPage',
    });
    expect(schemas.OrganizationSearchResult?.properties.path).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/OrganizationRef' },
    });
  });

  it('shows the examples routes give, each fitting the schema it illustrates', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDoc>();
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const withFormats = (addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats;
    withFormats(ajv);
    ajv.addSchema({ $id: DOC_ID, components: doc.components });
    const anchored = (schema: unknown) =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`));
    const shown: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const media = [
          ['body', op.requestBody?.content['application/json']],
          ...Object.entries(op.responses).map(
            ([status, r]) => [status, r.content?.['application/json']] as const,
          ),
        ] as const;
        for (const [where, content] of media) {
          for (const [name, example] of Object.entries(content?.examples ?? {})) {
            const at = `${method.toUpperCase()} ${path} ${where} ${name}`;
            const validate = ajv.compile(anchored(content?.schema));
            expect(validate(example.value), `${at}: ${ajv.errorsText(validate.errors)}`).toBe(true);
            expect(example.summary, at).toBeTruthy();
            shown.push(`${method.toUpperCase()} ${path} ${where}`);
          }
        }
      }
    }
    expect(shown).toEqual(
      expect.arrayContaining([
        'POST /api/integration/consume/batch body',
        'POST /api/integration/consume/batch 200',
      ]),
    );
  });

  it('serves the documentation page without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });

  it('answers health with the database state', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers an unknown API path with the error body (401 first when there is no token)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/nothing-here' })).statusCode).toBe(401);
    const token = await sessionFor(t.db, t.world.users.owner.id);
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here', headers: bearer(token) });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: 'Not found.' });
  });
});
