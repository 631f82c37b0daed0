import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorBodySchema, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@allot/domain/errors';
import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CommitOutcomeUnknown, RetryTransaction } from '../../src/db/transaction';
import { AppError } from '../../src/http/app-error';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

/**
 * CONTRACT §1 hardening, the rows of the security review that reached the HTTP layer: odd text (5),
 * authentication before validation and body limits (6), headers and malformed paths (9).
 */
let t: TestApp;
let webDir: string;
let owner = '';
beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'allot-web-'));
  await writeFile(
    path.join(webDir, 'index.html'),
    '<!doctype html><title>Allot</title><div id="root"></div>',
  );
  t = await createTestApp({ webDistDir: webDir });
  // A route that always collides: what the error handler answers once writeTransaction gave up.
  t.app.get(
    '/api/test/always-colliding',
    { schema: { operationId: 'testAlwaysColliding', response: { 409: errorBodySchema } } },
    async () => {
      throw new RetryTransaction('always');
    },
  );
  // A route meeting a database it cannot reach: after the retries, what the error handler answers.
  t.app.get(
    '/api/test/unavailable',
    {
      schema: {
        operationId: 'testUnavailable',
        querystring: z.object({ what: z.enum(['lost-connection', 'commit-unknown', 'import-lost']) }),
        response: { 503: errorBodySchema },
      },
    },
    async (request) => {
      const lost = Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      });
      if (request.query.what === 'commit-unknown') throw new CommitOutcomeUnknown(lost);
      // A service that wraps what it did not expect (an import) still answers the outage.
      if (request.query.what === 'import-lost')
        throw AppError.of('internal', 'The import failed.', undefined, { cause: lost });
      throw Object.assign(new Error('Failed query: select 1'), { cause: lost });
    },
  );
  owner = await t.login(t.world.users.owner.email, PASSWORD);
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

const NUL = '\u0000';
const LONE_SURROGATE = '\ud800';
const json = () => ({ 'content-type': 'application/json', ...bearer(owner) });

/** A 400 in the contract's body that names the field holding the odd text. */
function expectOddTextRefused(response: { statusCode: number; json: () => unknown }, field: string) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toMatchObject({
    error: 'invalid_input',
    details: { fields: { [field]: APP_MSG.oddCharacter } },
  });
}

describe('odd text (a NUL character, an unpaired surrogate) is a 400 on its field, never a 500', () => {
  const searches = () => [
    '/api/organization/search',
    '/api/user/search',
    `/api/organization/${t.world.orgs.alpha}/sub-organizations`,
    `/api/organization/${t.world.orgs.alpha}/users`,
  ];

  it('in the search of every list', async () => {
    for (const url of searches()) {
      for (const odd of ['a%00b', '%00', '%ED%A0%80']) {
        const response = await t.app.inject({
          method: 'GET',
          url: `${url}?search=${odd}`,
          headers: bearer(owner),
        });
        if (odd === '%ED%A0%80') {
          // Not UTF-8 at all: the query string decodes to the replacement character, which is text.
          expect(response.statusCode, url).toBe(200);
        } else {
          expectOddTextRefused(response, 'search');
        }
      }
    }
  });

  it('in names and emails of creates, updates and imports', async () => {
    const organization = {
      type: 'school',
      phoneNumber: '+1 555 000 1111',
      parentOrganizationId: t.world.orgs.alpha,
    };
    const cases: [string, string, (odd: string) => object, string][] = [
      ['POST', '/api/organization/create', (odd) => ({ ...organization, name: `a${odd}b` }), 'name'],
      [
        'POST',
        '/api/organization/create',
        (odd) => ({ ...organization, name: 'Ok', adminName: odd }),
        'adminName',
      ],
      [
        'POST',
        `/api/organization/${t.world.orgs.schoolB}/update`,
        (odd) => ({ ...organization, name: odd }),
        'name',
      ],
      [
        'POST',
        '/api/user/create',
        (odd) => ({
          name: `a${odd}b`,
          email: 'odd@alpha.test',
          organizationId: t.world.orgs.alpha,
          role: 'user',
        }),
        'name',
      ],
      [
        'POST',
        '/api/user/create',
        (odd) => ({
          name: 'Odd',
          email: `odd${odd}@alpha.test`,
          organizationId: t.world.orgs.alpha,
          role: 'user',
        }),
        'email',
      ],
      [
        'POST',
        `/api/user/${t.world.users.owner.id}/update`,
        (odd) => ({ name: `O${odd}`, email: t.world.users.owner.email }),
        'name',
      ],
      [
        'POST',
        '/api/user/bulk',
        (odd) => ({
          organizationId: t.world.orgs.alpha,
          users: [
            { email: 'fine@alpha.test', name: 'Fine', role: 'user' },
            { email: 'odd@alpha.test', name: `x${odd}`, role: 'user' },
          ],
        }),
        'users.1.name',
      ],
      [
        'POST',
        '/api/user/bulk/preview',
        (odd) => ({
          organizationId: t.world.orgs.alpha,
          users: [{ email: `a${odd}@b.test`, name: 'A', role: 'user' }],
        }),
        'users.0.email',
      ],
    ];
    for (const [method, url, body, field] of cases) {
      for (const odd of [NUL, LONE_SURROGATE, '\udc00']) {
        const response = await t.app.inject({
          method: method as 'POST',
          url,
          headers: json(),
          // JSON.stringify writes a lone surrogate as \ud800, the way an attacker's client would.
          payload: JSON.stringify(body(odd)),
        });
        expectOddTextRefused(response, field);
      }
    }
    // A surrogate pair (an emoji) is ordinary text.
    const emoji = await t.app.inject({
      method: 'POST',
      url: '/api/organization/create',
      headers: json(),
      payload: JSON.stringify({ ...organization, name: 'Sunny School \ud83c\udf1e' }),
    });
    expect(emoji.statusCode).toBe(201);
    expect(emoji.json().name).toBe('Sunny School 🌞');
  });

  it('in the public calls, before anyone signs in', async () => {
    const check = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password/check',
      payload: { userId: 'ab\u0000cd', token: 'x', code: '123456' },
    });
    expectOddTextRefused(check, 'userId');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'owner@alpha.test', password: `pass${LONE_SURROGATE}word!!` }),
    });
    expectOddTextRefused(login, 'password');
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email: `x${NUL}@alpha.test` },
    });
    expectOddTextRefused(forgot, 'email');
  });
});

describe('names refuse bidi controls, control characters and line breaks (issue 30)', () => {
  const SPOOF = 'invoice\u202efdp.exe';
  const organization = () => ({
    type: 'school',
    phoneNumber: '+1 555 000 1111',
    parentOrganizationId: t.world.orgs.alpha,
  });
  const post = (url: string, body: object, token = owner) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...bearer(token) },
      payload: JSON.stringify(body),
    });
  function expectRefused(
    response: { statusCode: number; json: () => unknown },
    field: string,
    message: string,
  ) {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'invalid_input',
      details: { fields: { [field]: message } },
    });
  }

  it('answers 400 on the name of an organization, a person or a key that holds one', async () => {
    for (const name of [SPOOF, 'North\nSchool', 'Tab\tSchool', 'C1\u0085School', 'Iso\u2066late\u2069']) {
      expectRefused(
        await post('/api/organization/create', { ...organization(), name }),
        'name',
        APP_MSG.notOneLine,
      );
      expectRefused(
        await post(`/api/organization/${t.world.orgs.schoolB}/update`, { ...organization(), name }),
        'name',
        APP_MSG.notOneLine,
      );
      expectRefused(
        await post('/api/organization/create', { ...organization(), name: 'Fine', adminName: name }),
        'adminName',
        APP_MSG.notOneLine,
      );
      expectRefused(
        await post('/api/user/create', {
          name,
          email: 'bidi@alpha.test',
          organizationId: t.world.orgs.alpha,
          role: 'user',
        }),
        'name',
        APP_MSG.notOneLine,
      );
      expectRefused(
        await post(`/api/user/${t.world.users.owner.id}/update`, { name, email: t.world.users.owner.email }),
        'name',
        APP_MSG.notOneLine,
      );
      expectRefused(
        await post(`/api/organization/${t.world.orgs.alpha}/integration-keys`, { name }),
        'name',
        APP_MSG.notOneLine,
      );
    }
    // A name pasted with a line break at its end is trimmed, as white space is.
    const pasted = await post('/api/organization/create', { ...organization(), name: 'Pasted School\r\n' });
    expect(pasted.statusCode).toBe(201);
    expect(pasted.json().name).toBe('Pasted School');
  });

  it('skips an imported row whose name holds one, with its reason', async () => {
    const body = {
      organizationId: t.world.orgs.alpha,
      users: [
        { email: 'bidi-row@alpha.test', name: SPOOF, role: 'user' },
        { email: 'fine-row@alpha.test', name: 'Fine Row', role: 'user' },
      ],
    };
    const preview = await post('/api/user/bulk/preview', body);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().skipped).toEqual([
      {
        row: 2,
        email: 'bidi-row@alpha.test',
        reason: 'invalid_name',
        message: 'The name must not contain line breaks or control characters.',
      },
    ]);
    expect(preview.json().toAdd.map((r: { email: string }) => r.email)).toEqual(['fine-row@alpha.test']);
  });

  it('lets a description hold lines, never a bidi control', async () => {
    const systemAdmin = await t.login(t.world.users.systemAdmin.email, PASSWORD);
    const allocate = (description: string) =>
      post(
        '/api/credit/allocate/system',
        { organizationId: t.world.orgs.alpha, amount: 1, toPool: 'shared', description },
        systemAdmin,
      );
    expect((await allocate('PO 4471\nspring term')).statusCode).toBe(200);
    expectRefused(await allocate(`PO ${SPOOF}`), 'description', APP_MSG.controlCharacter);
  });

  it('still reads a name stored before the rule, as it is', async () => {
    await t.db.execute(sql`update organizations set name = ${SPOOF} where id = ${t.world.orgs.schoolB}`);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${t.world.orgs.schoolB}`,
      headers: bearer(owner),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().name).toBe(SPOOF);
    await t.db.execute(
      sql`update organizations set name = 'Alpha School B' where id = ${t.world.orgs.schoolB}`,
    );
  });
});

describe('authentication comes before the body (CONTRACT §1)', () => {
  it('answers 401 to a call without a valid token, whatever its body', async () => {
    const huge = { name: 'x'.repeat(19 * 1024 * 1024), type: 'castle' };
    for (const headers of [{}, bearer('not-a-token')]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/organization/create',
        headers,
        payload: huge,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'unauthorized', message: APP_MSG.unauthorized });
    }
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/user/create',
      payload: { nonsense: true },
    });
    expect(invalid.statusCode).toBe(401);
  });

  it('limits bodies to 1 MB and imports to 16 MB (413)', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/organization/create',
      headers: bearer(owner),
      payload: { name: 'x'.repeat(1024 * 1024 + 1) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'payload_too_large', message: APP_MSG.bodyTooLarge });

    const row = { email: 'someone@alpha.test', name: 'x'.repeat(900), role: 'user' };
    const fiveMegabytes = { organizationId: t.world.orgs.alpha, users: Array(5000).fill(row) };
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/user/bulk/preview',
      headers: bearer(owner),
      payload: fiveMegabytes,
    });
    expect(preview.statusCode).toBe(200);
    const tooBig = { organizationId: t.world.orgs.alpha, users: Array(18_000).fill(row) };
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/user/bulk/preview',
      headers: bearer(owner),
      payload: tooBig,
    });
    expect(refused.statusCode).toBe(413);
  });

  it('answers a body that is not JSON, or not an object, in the contract’s body', async () => {
    const cases: [Record<string, string>, string, number, string][] = [
      [{ 'content-type': 'text/plain' }, 'hello', 415, APP_MSG.notJson],
      [{ 'content-type': 'application/json' }, '{"name":', 400, APP_MSG.unreadableRequest],
      [{ 'content-type': 'application/json' }, '"a string"', 400, APP_MSG.bodyNotObject],
      [{ 'content-type': 'application/json' }, '{"__proto__":{"x":1}}', 400, APP_MSG.unreadableRequest],
    ];
    for (const [headers, payload, status, message] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/organization/create',
        headers: { ...headers, ...bearer(owner) },
        payload,
      });
      expect(response.statusCode, payload).toBe(status);
      expect(response.json().message, payload).toBe(message);
    }
  });
});

describe('headers and malformed paths (CONTRACT §1)', () => {
  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-frame-options']).toBe('DENY');
  };

  it('puts them on pages, API answers and errors; API answers are never cached', async () => {
    for (const url of ['/', '/login', '/password/token/a/b']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expectSecurityHeaders(page.headers);
    }
    for (const [url, headers, status] of [
      ['/api/health', {}, 200],
      ['/api/organization', {}, 401],
      ['/api/organization', bearer(owner), 200],
      ['/api/nothing-here', bearer(owner), 404],
    ] as const) {
      const answer = await t.app.inject({ method: 'GET', url, headers });
      expect(answer.statusCode, url).toBe(status);
      expectSecurityHeaders(answer.headers);
      expect(answer.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('answers a path that cannot be decoded with a 400 in the contract’s body', async () => {
    for (const url of ['/api/organization/%zz', '/api/organization/%E0%A4%A/users', '/api/user/%/update']) {
      const response = await t.app.inject({ method: 'GET', url, headers: bearer(owner) });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: 'invalid_input', message: APP_MSG.invalidPath });
      expectSecurityHeaders(response.headers);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers 409, not 500, when concurrent changes still collide after every retry', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/test/always-colliding',
      headers: bearer(owner),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'conflict', message: APP_MSG.concurrentChange });
  });

  it('answers 503 with Retry-After, not 500, when the database cannot be reached (issue 30)', async () => {
    const answers = await Promise.all(
      ['lost-connection', 'commit-unknown', 'import-lost'].map((what) =>
        t.app.inject({ method: 'GET', url: `/api/test/unavailable?what=${what}`, headers: bearer(owner) }),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    }
    expect(answers.map((a) => a.json())).toEqual([
      { error: 'unavailable', message: APP_MSG.databaseUnavailable },
      { error: 'unavailable', message: APP_MSG.commitOutcomeUnknown },
      { error: 'unavailable', message: APP_MSG.databaseUnavailable },
    ]);
  });
});
