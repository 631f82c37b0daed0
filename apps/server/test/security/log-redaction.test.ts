import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorBodySchema } from '@allot/domain/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from '../../src/http/log-redaction';
import { insertIntegrationKey } from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

/**
 * Issue 30: the request log keeps no secret and no email. The app logs to a stream this file reads, as
 * `npm start` logs to stdout.
 */
let t: TestApp;
let webDir: string;
const logged: string[] = [];
const log = () => logged.join('');

beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'allot-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Allot</title>');
  t = await createTestApp({
    webDistDir: webDir,
    logger: { level: 'info', stream: { write: (line: string) => logged.push(line) } },
  });
  // Routes whose query fails: its parameters must not reach the log line of the 500.
  const failing = { operationId: 'testFailingQuery', response: { 500: errorBodySchema } };
  t.app.get('/api/test/failing-query', { schema: failing }, async () => {
    await t.db.execute(sql`select 1 / 0 where ${'param-secret@school.test'} <> ''`);
  });
  const duplicate = { operationId: 'testDuplicateEmail', response: { 500: errorBodySchema } };
  t.app.get('/api/test/duplicate-email', { schema: duplicate }, async () => {
    await t.db.execute(sql`insert into users (email, name) values (${t.world.users.teacher.email}, 'Twin')`);
  });
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

describe('redactUrl', () => {
  it('drops the token of a mailed link and the values of parameters not known to be harmless', () => {
    expect(redactUrl('/password/token/5d0c/AbC-123_x')).toBe(`/password/token/5d0c/${REDACTED}`);
    expect(redactUrl('/email/confirm/5d0c/AbC-123_x?x=1')).toBe(
      `/email/confirm/5d0c/${REDACTED}?x=${REDACTED}`,
    );
    expect(redactUrl('/api/integration/entitlement?email=a%40b.test&licenseType=chorus')).toBe(
      `/api/integration/entitlement?email=${REDACTED}&licenseType=chorus`,
    );
    expect(redactUrl('/api/user/search?search=ava+garc%C3%ADa&page=2&limit=20&key=name&order=asc')).toBe(
      `/api/user/search?search=${REDACTED}&page=2&limit=20&key=name&order=asc`,
    );
    expect(redactUrl('/invitation?email=a@b.test&organization=5d0c')).toBe(
      `/invitation?email=${REDACTED}&organization=5d0c`,
    );
    expect(redactUrl('/api/organization/5d0c/users?%65mail=x&flag')).toBe(
      `/api/organization/5d0c/users?%65mail=${REDACTED}&flag`,
    );
    expect(redactUrl('/api/organization/5d0c')).toBe('/api/organization/5d0c');
  });
});

describe('the request log (issue 30)', () => {
  it('keeps no token, email, password or Authorization header of any request', async () => {
    const owner = await t.login(t.world.users.owner.email, PASSWORD);
    const integration = await insertIntegrationKey(t.db, t.world.orgs.alpha);
    const resetToken = 'kq3Vx0-resetTokenThatMustNotBeLogged_4fJ2';
    const confirmToken = 'Zy7-confirmTokenThatMustNotBeLogged_Q1';
    const teacher = t.world.users.teacher;
    const secrets = [
      resetToken,
      confirmToken,
      teacher.email,
      encodeURIComponent(teacher.email),
      'invitee@elsewhere.test',
      'searched@school-a.test',
      owner,
      integration.key,
      PASSWORD,
      'body-password-1234',
      'param-secret@school.test',
    ];
    const answers = [
      await t.app.inject({ method: 'GET', url: `/password/token/${teacher.id}/${resetToken}` }),
      await t.app.inject({ method: 'GET', url: `/email/confirm/${teacher.id}/${confirmToken}` }),
      await t.app.inject({
        method: 'GET',
        url: `/invitation?email=${encodeURIComponent('invitee@elsewhere.test')}&organization=${t.world.orgs.alpha}`,
      }),
      await t.app.inject({
        method: 'GET',
        url: `/api/integration/entitlement?email=${encodeURIComponent(teacher.email)}&licenseType=chorus`,
        headers: bearer(integration.key),
      }),
      await t.app.inject({
        method: 'GET',
        url: `/api/user/search?search=${encodeURIComponent('searched@school-a.test')}&limit=5`,
        headers: bearer(owner),
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: teacher.email, password: 'body-password-1234' },
      }),
      // A body that is not JSON: a parser's message would quote it.
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: `{"email":"${teacher.email}","password":"body-password-1234" oops}`,
      }),
      await t.app.inject({ method: 'GET', url: '/api/test/failing-query', headers: bearer(owner) }),
      await t.app.inject({ method: 'GET', url: '/api/test/duplicate-email', headers: bearer(owner) }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 401, 400, 500, 500]);

    const text = log();
    // The requests were logged, and the two failed queries with what a person needs to find them.
    expect(text).toContain(`/password/token/${teacher.id}/${REDACTED}`);
    expect(text).toContain(`/api/integration/entitlement?email=${REDACTED}&licenseType=chorus`);
    expect(text).toContain('division by zero');
    expect(text).toContain('insert into users');
    expect(text).toContain('duplicate key value violates unique constraint');
    for (const secret of secrets) expect(text, secret).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text).not.toContain('Bearer');
  });
});
