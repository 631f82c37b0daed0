import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { rows } from '../../src/db/rows';
import {
  type OutboxMail,
  processOutbox,
  queueMail,
  RETRY_CAP_MS,
  retryDelayMs,
} from '../../src/features/mail/outbox';
import { logTransport, smtpTransport } from '../../src/features/mail/transports';
import { codeIn, mailsTo, resetLinkParts } from '../support/outbox';
import { type SmtpCatcher, startSmtpCatcher } from '../support/smtp-catcher';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app';

let t: TestApp;
let smtp: SmtpCatcher;
beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtpCatcher();
});
afterAll(async () => {
  await smtp.stop();
  await t.close();
});
beforeEach(async () => {
  // Each test starts with an empty queue and SMTP up.
  await t.db.execute(sql`delete from mail_outbox`);
  await t.db.execute(sql`delete from rate_limits`);
  smtp.received.length = 0;
  await smtp.start().catch(() => undefined);
});

const FROM = 'Allot <no-reply@panel.test>';
/** Asks for a reset; the answer comes at once, the mail after it (lib/background.ts): both awaited. */
const forgot = async (email: string) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/password/forgot',
    payload: { email },
  });
  await t.app.background.settle();
  return response;
};
const testMail = (to: string, subject = 'Test') => ({
  kind: 'test',
  to,
  subject,
  text: `Hello ${to}`,
  html: `<p>Hello ${to}</p>`,
});
const until = async (condition: () => Promise<boolean> | boolean, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('delivery through SMTP', () => {
  it('sends a queued reset mail: text and HTML, code and link readable by the receiver', async () => {
    expect((await forgot('admin@alpha.test')).json()).toEqual({ success: true });
    // The request did not send anything itself.
    expect(smtp.received).toHaveLength(0);

    const transport = smtpTransport(smtp.url, FROM);
    expect(await processOutbox(t.db, transport)).toEqual({ delivered: 1, failed: 0 });
    transport.close();

    const mail = await smtp.waitFor('admin@alpha.test');
    expect(mail.from).toBe('no-reply@panel.test');
    expect(mail.subject).toBe('Your Allot password reset code');
    const code = codeIn(mail.text);
    const { userId, token } = resetLinkParts(mail.text);
    expect(userId).toBe(t.world.users.admin.id);
    expect(mail.html).toContain(code);
    expect(mail.html).toContain(`${TEST_PUBLIC_URL}/password/token/${userId}/${token}`);

    const [row] = await mailsTo(t.db, 'admin@alpha.test');
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    // Nothing is due any more: a second round sends nothing.
    expect(await processOutbox(t.db, smtpTransport(smtp.url, FROM))).toEqual({ delivered: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps a mail through an outage and sends it once the server is back', async () => {
    await smtp.stop();
    expect((await forgot('owner@alpha.test')).statusCode).toBe(200);
    const transport = smtpTransport(smtp.url, FROM);
    expect(await processOutbox(t.db, transport)).toEqual({ delivered: 0, failed: 1 });

    const [failed] = await rows<{ status: string; attempts: number; last_error: string; wait: number }>(
      t.db,
      sql`select status, attempts, last_error, extract(epoch from next_attempt_at - now()) as wait
          from mail_outbox`,
    );
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed?.last_error).toMatch(/ECONNREFUSED/);
    expect(Number(failed?.wait)).toBeGreaterThan(retryDelayMs(1) / 1000 - 2);
    expect(Number(failed?.wait)).toBeLessThanOrEqual(retryDelayMs(1) / 1000);
    // Not due yet: the next round leaves it alone.
    expect(await processOutbox(t.db, transport)).toEqual({ delivered: 0, failed: 0 });

    await smtp.start();
    // Time passes: the next attempt is due.
    await t.db.execute(sql`update mail_outbox set next_attempt_at = now()`);
    expect(await processOutbox(t.db, transport)).toEqual({ delivered: 1, failed: 0 });
    transport.close();
    await smtp.waitFor('owner@alpha.test');
    expect(smtp.received).toHaveLength(1);
    expect((await mailsTo(t.db, 'owner@alpha.test'))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('backs off exponentially, capped, and never gives a mail up', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs)).toEqual([
      10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000,
    ]);
    expect(retryDelayMs(50)).toBe(RETRY_CAP_MS);
  });

  it('the worker of a running app loses nothing while the SMTP server is down', async () => {
    await smtp.stop();
    const app = await buildApp({
      db: t.db,
      publicUrl: TEST_PUBLIC_URL,
      // Seconds of back-off become milliseconds: the same schedule, fast enough for a test.
      mail: {
        smtpUrl: smtp.url,
        from: FROM,
        worker: { pollMs: 20, retryDelay: (n) => retryDelayMs(n) / 100 },
      },
    });
    try {
      await app.ready();
      const emails = ['admin@alpha.test', 'owner@alpha.test', 'admin@school-a.test'];
      for (const email of emails)
        expect(
          (await app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email } }))
            .statusCode,
        ).toBe(200);
      // Several failed rounds while the server is down.
      await until(async () => {
        const [r] = await rows<{ min: number }>(t.db, sql`select min(attempts) as min from mail_outbox`);
        return Number(r?.min) >= 3;
      });
      expect(smtp.received).toHaveLength(0);

      await smtp.start();
      for (const email of emails) await smtp.waitFor(email);
      await until(
        async () => (await rows(t.db, sql`select 1 from mail_outbox where status = 'pending'`)).length === 0,
      );
      expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([...emails].sort());
    } finally {
      await app.close();
    }
  });

  it('a mail queued by a server that stopped is sent by the next one on the same database', async () => {
    const first = await buildApp({ db: t.db, publicUrl: TEST_PUBLIC_URL });
    await first.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email: 'admin@alpha.test' },
    });
    await first.close();
    expect(smtp.received).toHaveLength(0);

    const second = await buildApp({
      db: t.db,
      publicUrl: TEST_PUBLIC_URL,
      mail: { smtpUrl: smtp.url, from: FROM, worker: { pollMs: 20 } },
    });
    try {
      await second.ready();
      const mail = await smtp.waitFor('admin@alpha.test');
      expect(codeIn(mail.text)).toMatch(/^\d{6}$/);
    } finally {
      await second.close();
    }
  });

  it('two workers at once send every mail exactly once', async () => {
    for (let i = 0; i < 30; i++) await queueMail(t.db, testMail(`person-${i}@example.test`));
    const a = smtpTransport(smtp.url, FROM);
    const b = smtpTransport(smtp.url, FROM);
    const [ra, rb] = await Promise.all([
      processOutbox(t.db, a, { batchSize: 5 }),
      processOutbox(t.db, b, { batchSize: 5 }),
    ]);
    a.close();
    b.close();
    expect(ra.delivered + rb.delivered).toBe(30);
    await until(() => smtp.received.length >= 30);
    const recipients = smtp.received.map((m) => m.to[0]);
    expect(new Set(recipients).size).toBe(30);
    expect(recipients).toHaveLength(30);
  });

  it('after one failure the rest of the batch is not tried and waits with its own back-off', async () => {
    await smtp.stop();
    for (let i = 0; i < 3; i++) await queueMail(t.db, testMail(`down-${i}@example.test`));
    const sent: string[] = [];
    const transport = smtpTransport(smtp.url, FROM);
    const counting = {
      ...transport,
      send: (mail: OutboxMail) => {
        sent.push(mail.to);
        return transport.send(mail);
      },
    };
    expect(await processOutbox(t.db, counting)).toEqual({ delivered: 0, failed: 3 });
    transport.close();
    expect(sent).toHaveLength(1);
    const rowsNow = await rows<{ attempts: number; last_error: string; due: boolean }>(
      t.db,
      sql`select attempts, last_error, next_attempt_at <= now() as due from mail_outbox`,
    );
    expect(rowsNow).toHaveLength(3);
    for (const row of rowsNow) {
      expect(row).toMatchObject({ attempts: 1, due: false });
      expect(row.last_error).toMatch(/ECONNREFUSED/);
    }
  });

  it('gives claimed mail back when stopping, or when the lease is half used', async () => {
    for (let i = 0; i < 4; i++) await queueMail(t.db, testMail(`claimed-${i}@example.test`));
    const stopping = new AbortController();
    const stopAfterFirst = {
      delivers: 'sent' as const,
      send: async () => stopping.abort(),
      close: () => {},
    };
    expect(await processOutbox(t.db, stopAfterFirst, { signal: stopping.signal })).toEqual({
      delivered: 1,
      failed: 0,
    });
    const afterStop = await rows<{ status: string; attempts: number; due: boolean }>(
      t.db,
      sql`select status, attempts, next_attempt_at <= now() as due from mail_outbox order by status`,
    );
    expect(afterStop.filter((r) => r.status === 'sent')).toHaveLength(1);
    expect(afterStop.filter((r) => r.status === 'pending')).toEqual(
      Array(3).fill({ status: 'pending', attempts: 0, due: true }),
    );

    // A send slower than half the lease: the rest goes back rather than risk a second worker sending it.
    const slow = {
      delivers: 'sent' as const,
      send: () => new Promise<void>((resolve) => setTimeout(resolve, 250)),
      close: () => {},
    };
    expect(await processOutbox(t.db, slow, { leaseMs: 400 })).toEqual({ delivered: 1, failed: 0 });
    const [pending] = await rows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from mail_outbox where status = 'pending' and attempts = 0`,
    );
    expect(pending?.n).toBe(2);
  });

  it('a worker stops cleanly when its app closes', async () => {
    const app = await buildApp({
      db: t.db,
      mail: { smtpUrl: smtp.url, from: FROM, worker: { pollMs: 10 } },
    });
    await app.ready();
    await queueMail(t.db, testMail('closing@example.test'));
    await smtp.waitFor('closing@example.test');
    await app.close();
    await queueMail(t.db, testMail('after-close@example.test'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.received.map((m) => m.to[0])).toEqual(['closing@example.test']);
  });
});

describe('without SMTP_URL', () => {
  it('keeps the mail in the outbox and prints it, code and link included, to the log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({
      db: t.db,
      publicUrl: TEST_PUBLIC_URL,
      logger: { level: 'info', stream },
      mail: { worker: { pollMs: 20 } },
    });
    try {
      await app.ready();
      await app.inject({
        method: 'POST',
        url: '/api/auth/password/forgot',
        payload: { email: 'admin@alpha.test' },
      });
      await until(async () => (await mailsTo(t.db, 'admin@alpha.test'))[0]?.status === 'logged');
    } finally {
      await app.close();
    }
    const [row] = await mailsTo(t.db, 'admin@alpha.test');
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.mail?.to === 'admin@alpha.test');
    expect(logged.msg).toContain('SMTP_URL is not set');
    expect(logged.mail.subject).toBe('Your Allot password reset code');
    expect(logged.mail.text).toContain(codeIn(row?.text_body ?? ''));
    expect(logged.mail.text).toContain(`${TEST_PUBLIC_URL}/password/token/`);
    expect(smtp.received).toHaveLength(0);
  });

  it('the log transport marks rows logged', async () => {
    await queueMail(t.db, testMail('logged@example.test'));
    const messages: string[] = [];
    const log = { info: (_: object, message: string) => messages.push(message) };
    const result = await processOutbox(t.db, logTransport(log as never));
    expect(result).toEqual({ delivered: 1, failed: 0 });
    expect(messages).toEqual([
      'mail kept in the outbox (SMTP_URL is not set): "Test" to logged@example.test',
    ]);
    expect((await mailsTo(t.db, 'logged@example.test'))[0]?.status).toBe('logged');
  });
});
