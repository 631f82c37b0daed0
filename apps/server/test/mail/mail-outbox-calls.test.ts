import type { MailOutboxPage } from '@allot/domain/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { signedInCalls } from '../support/calls';
import { bearer, createTestApp, type TestApp } from '../support/test-app';

/** GET /api/mail/outbox (issue 33): what was mailed, or kept for want of SMTP, for system admins. */
let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['systemAdmin', 'owner']);
});
afterAll(() => t.close());

describe('the mail outbox', () => {
  it('shows a system admin each mail with its text, newest first, and says nothing is sent without SMTP', async () => {
    const invited = await api.post('owner', '/api/user/create', {
      email: 'outbox-reader@alpha.test',
      name: 'Otto Outbox',
      organizationId: t.world.orgs.schoolA,
      role: 'user',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const answer = await api.get('systemAdmin', '/api/mail/outbox?limit=5');
    expect(answer.statusCode, answer.body).toBe(200);
    const page = answer.json<MailOutboxPage>();
    // The test app has no mail transport: as an installation without SMTP_URL.
    expect(page.delivery).toBe('log');
    expect(page.data[0]).toMatchObject({
      kind: 'invitation',
      to: 'outbox-reader@alpha.test',
      status: 'pending',
    });
    expect(page.data[0]?.text).toMatch(/\b\d{6}\b/);
    expect(page.pagination).toMatchObject({ page: 1, limit: 5 });
    expect((await api.get('owner', '/api/mail/outbox')).statusCode).toBe(403);
  });

  it('says mail is sent where a transport delivers it', async () => {
    const app = await buildApp({
      db: t.db,
      mail: { worker: {}, transport: { delivers: 'sent', send: async () => {}, close: () => {} } },
    });
    try {
      const token = await t.login(t.world.users.systemAdmin.email, 'correct-horse-battery');
      const answer = await app.inject({ method: 'GET', url: '/api/mail/outbox', headers: bearer(token) });
      expect(answer.json<MailOutboxPage>().delivery).toBe('smtp');
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/mail/delivery', () => {
  it('tells anyone, signed in or not, whether mail is delivered', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/mail/delivery' });
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    expect(anonymous.json()).toEqual({ delivery: 'log' });
    expect((await api.get('owner', '/api/mail/delivery')).json()).toEqual({ delivery: 'log' });
    const app = await buildApp({
      db: t.db,
      mail: { worker: {}, transport: { delivers: 'sent', send: async () => {}, close: () => {} } },
    });
    try {
      const answer = await app.inject({ method: 'GET', url: '/api/mail/delivery' });
      expect(answer.json()).toEqual({ delivery: 'smtp' });
    } finally {
      await app.close();
    }
  });
});
