import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyReply } from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

/**
 * Issue 11: an admin generates a client from the live document (openapi-typescript), and a script written
 * against it compiles under strict TypeScript and runs against the server (openapi-fetch).
 */
const GENERATED = path.join(import.meta.dirname, '.generated', `client-${process.pid}`);

/** The admin's script: numeric `limit`, typed answers and typed errors. */
const SCRIPT = `
import createClient from 'openapi-fetch';
import type { paths } from './api';

export async function run(baseUrl: string, email: string, password: string) {
  const client = createClient<paths>({ baseUrl });
  const login = await client.POST('/api/auth/login', { body: { email, password } });
  if (!login.data) throw new Error(login.error?.message ?? 'no session');
  const headers = { Authorization: \`Bearer \${login.data.secToken}\` };
  const mine = await client.GET('/api/organization', { headers });
  const first: string = mine.data?.[0]?.id ?? '';
  const page = await client.GET('/api/organization/{id}/sub-organizations', {
    params: { path: { id: first }, query: { limit: 20, page: 1, order: 'desc' } },
    headers,
  });
  const total: number = page.data?.pagination.total ?? -1;
  const names: string[] = page.data?.data.map((o) => o.name) ?? [];
  // @ts-expect-error limit is a number in the document, not text
  await client.GET('/api/organization/search', { params: { query: { limit: '20' } }, headers });
  const missing = await client.GET('/api/organization/{id}', {
    params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    headers,
  });
  const refused = await client.POST('/api/organization/create', {
    body: { name: '', phoneNumber: '+1 555 000 0000', type: 'school', parentOrganizationId: first },
    headers,
  });
  const fields: Record<string, string> | undefined = refused.error?.details?.fields;
  // The classroom product's side: a key of the organization, and a batch whose results narrow by status.
  const created = await client.POST('/api/organization/{id}/integration-keys', {
    params: { path: { id: first } },
    body: { name: 'Script key' },
    headers,
  });
  const batch = await client.POST('/api/integration/consume/batch', {
    params: { header: { 'idempotency-key': 'script-batch-1' } },
    body: { items: [{ email: 'nobody@nowhere.test', credits: 1, reference: 'script-1' }] },
    headers: { Authorization: \`Bearer \${created.data?.key ?? ''}\` },
  });
  const outcomes: string[] =
    batch.data?.results.map((r) => (r.status === 'refused' ? \`\${r.reference}: \${r.error}\` : \`own \${r.balances.own}\`)) ?? [];
  return {
    role: login.data.role,
    organizations: mine.data?.length ?? 0,
    total,
    names,
    missing: { status: missing.response.status, code: missing.error?.error },
    refused: { status: refused.response.status, fields },
    outcomes,
  };
}
`;

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await rm(GENERATED, { recursive: true, force: true });
});

describe('a client generated from the API document', () => {
  it('compiles with strict TypeScript and gets what the types say', { timeout: 60_000 }, async () => {
    const document = (await (await fetch(`${baseUrl}/api/docs/json`)).json()) as Parameters<
      typeof openapiTS
    >[0];
    await mkdir(GENERATED, { recursive: true });
    await writeFile(path.join(GENERATED, 'api.ts'), astToString(await openapiTS(document)));
    const script = path.join(GENERATED, 'script.ts');
    await writeFile(script, SCRIPT);

    const program = ts.createProgram([script], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);

    const { run } = (await import(pathToFileURL(script).href)) as {
      run: (baseUrl: string, email: string, password: string) => Promise<unknown>;
    };
    const answer = await run(baseUrl, t.world.users.owner.email, PASSWORD);
    expect(answer).toEqual({
      role: 'organization_owner',
      organizations: 1,
      total: 2,
      names: ['Alpha School B', 'Alpha School A'],
      missing: { status: 404, code: 'not_found' },
      refused: { status: 400, fields: { name: 'Field is required.' } },
      outcomes: ['script-1: not_found'],
    });
  });

  it('fails the tests when an answer differs from the document', async () => {
    const app = await createTestApp();
    app.app.get(
      '/api/drift-probe',
      {
        schema: {
          operationId: 'driftProbe',
          response: { 200: z.object({ id: z.string().meta({ format: 'uuid' }) }) },
        },
      },
      async (request, reply) =>
        request.query && 'teapot' in (request.query as object)
          ? (reply as unknown as FastifyReply).status(418).send({})
          : { id: 'not-a-uuid' },
    );
    const token = await app.login(app.world.users.owner.email, PASSWORD);
    const headers = { authorization: `Bearer ${token}` };
    await app.app.inject({ method: 'GET', url: '/api/drift-probe', headers });
    await app.app.inject({ method: 'GET', url: '/api/drift-probe?teapot', headers });
    expect(app.contract.violations).toEqual([
      expect.stringContaining('GET /api/drift-probe 200: /id must match format "uuid"'),
      'GET /api/drift-probe answered 418, which the document does not list',
    ]);
    app.contract.violations.length = 0;
    await app.close();
  });
});
