import type { Invoice } from '@allot/domain/invoices';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { rows } from '../../src/db/rows';
import { DEFAULT_INVOICE_MAILS_PER_DAY } from '../../src/features/invoices/invoice-recipients';
import { processOutbox } from '../../src/features/mail/outbox';
import { smtpTransport } from '../../src/features/mail/transports';
import { unlinked } from '../../src/features/mail/unlinked';
import { signedInCalls } from '../support/calls';
import { type SmtpCatcher, startSmtpCatcher } from '../support/smtp-catcher';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app';

/**
 * Invoice mail is no spam channel (issue 30, finding 6; CONTRACT §7; decision 010): the probe renamed its
 * organization "Pay now at http://evil.test/pay" and sent 25 invoices to an outsider, all delivered. Now at most
 * INVOICE_MAILS_PER_DAY (20) go to addresses outside the organization's owners and admins, and the name is plain
 * text that no mail client makes a link of. Delivered through SMTP to a real server (support/smtp-catcher.ts).
 */
let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
let smtp: SmtpCatcher;
const OUTSIDER = 'victim@outside.test';
const BAIT = 'Pay now at http://evil.test/pay';

beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['owner', 'schoolAdmin']);
  smtp = await startSmtpCatcher();
});
afterAll(async () => {
  await smtp.stop();
  await t.close();
});

async function invoiceTo(customerEmail: string, organizationId = t.world.orgs.alpha): Promise<Invoice> {
  const answer = await api.post('owner', '/api/invoice/create', {
    organizationId,
    kind: 'credits',
    credits: 1000,
    customerEmail,
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}

async function deliver(): Promise<void> {
  const transport = smtpTransport(smtp.url, 'Allot <no-reply@panel.test>');
  try {
    const { failed } = await processOutbox(t.db, transport);
    expect(failed).toBe(0);
  } finally {
    transport.close();
  }
}

/**
 * What an auto-linking mail client would make a link of: addresses with a scheme, `www.` names, bare domain
 * names and emails (any top-level name of two letters or more).
 */
const LINKABLE =
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"]+|\bwww\.[^\s<>"]+|\b[\p{L}\p{N}-]+(?:[.\u3002\uFF0E\uFF61][\p{L}\p{N}-]+)+\b|[^\s<>"@]+@[^\s<>"@]+/giu;
const panelLink = (found: string) => found.startsWith(TEST_PUBLIC_URL) || found === 'panel.test';

describe('invoice mail', () => {
  it(`25 invoices to an outsider: ${DEFAULT_INVOICE_MAILS_PER_DAY} mails, the rest created unmailed; the name is never a link`, async () => {
    const { alpha } = t.world.orgs;
    const renamed = await api.post('owner', `/api/organization/${alpha}/update`, {
      name: BAIT,
      type: 'district',
      phoneNumber: '+1 555 000 1111',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const invoices = await Promise.all(Array.from({ length: 25 }, () => invoiceTo(OUTSIDER)));
    expect(invoices.filter((i) => i.mailed)).toHaveLength(20);
    expect(invoices.filter((i) => !i.mailed)).toHaveLength(5);
    // Unmailed, each is still an invoice: listed, numbered, readable.
    const unmailed = invoices.find((i) => !i.mailed) as Invoice;
    expect((await api.get('owner', `/api/invoice/${unmailed.id}`)).json()).toMatchObject({
      status: 'open',
      mailed: false,
    });
    // The organization's own owners and admins still get theirs; an unconfirmed admin's address counts as outside.
    expect((await invoiceTo('owner@alpha.test')).mailed).toBe(true);
    expect((await invoiceTo('admin@alpha.test')).mailed).toBe(true);
    expect((await invoiceTo('new@alpha.test')).mailed).toBe(false);
    // The allowance is the organization's: another organization's invoices are not held back by it.
    expect((await invoiceTo(OUTSIDER, t.world.orgs.schoolA)).mailed).toBe(true);

    await deliver();
    await smtp.waitFor('admin@alpha.test');
    const toOutsider = smtp.received.filter((m) => m.to.includes(OUTSIDER));
    expect(toOutsider).toHaveLength(21); // 20 of the district's, 1 of School A's
    expect(smtp.received.filter((m) => m.to.includes('new@alpha.test'))).toHaveLength(0);
    const mailedNumbers = new Set(invoices.filter((i) => i.mailed).map((i) => i.number));
    const districtMails = toOutsider.filter((m) => [...mailedNumbers].some((n) => m.subject.includes(n)));
    expect(districtMails).toHaveLength(20);

    const mail = districtMails[0];
    if (!mail) throw new Error('no mail');
    // The name, in quotes, with the marks that make an address bracketed.
    expect(mail.text).toContain('for the organization “Pay now at http[:]//evil[.]test/pay”');
    expect(mail.html).toContain('for the organization “Pay now at http[:]//evil[.]test/pay”');
    for (const body of [mail.text, mail.html]) {
      expect(body).not.toContain('evil.test');
      expect(body).not.toContain('http://evil');
      const linkable = [...body.matchAll(LINKABLE)].map((m) => m[0]).filter((found) => !panelLink(found));
      expect(linkable.filter((found) => /evil|pay/i.test(found))).toEqual([]);
    }
    // The HTML's only links are the invoice's page.
    const hrefs = [...mail.html.matchAll(/<a\b[^>]*href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.every((href) => href?.startsWith(`${TEST_PUBLIC_URL}/${alpha}/invoices/`))).toBe(true);
  });

  it('the count is kept in the database, per organization, for 24 hours', async () => {
    const [counter] = await rows<{ count: number }>(
      t.db,
      sql`select count from rate_limits where key = ${`invoice-mails:${t.world.orgs.alpha}`}`,
    );
    // 25 to the outsider and 1 to the unconfirmed admin; the owner's and admin's own are not counted.
    expect(Number(counter?.count)).toBe(26);
    await t.db.execute(sql`update rate_limits set window_started_at = now() - interval '24 hours 1 second'
      where key = ${`invoice-mails:${t.world.orgs.alpha}`}`);
    expect((await invoiceTo(OUTSIDER)).mailed).toBe(true);
  });

  it('INVOICE_MAILS_PER_DAY sets the allowance', async () => {
    expect(loadConfig({ INVOICE_MAILS_PER_DAY: '3' }).invoiceMailsPerDay).toBe(3);
    expect(loadConfig({}).invoiceMailsPerDay).toBeUndefined();
    expect(() => loadConfig({ INVOICE_MAILS_PER_DAY: '0' })).toThrow(
      'INVOICE_MAILS_PER_DAY must be a whole number above 0: 0',
    );
    const small = await createTestApp({ invoiceMailsPerDay: 2 });
    try {
      const calls = await signedInCalls(small, ['owner']);
      const mailed: boolean[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await calls.post('owner', '/api/invoice/create', {
          organizationId: small.world.orgs.alpha,
          kind: 'credits',
          credits: 1000,
          customerEmail: OUTSIDER,
        });
        mailed.push(answer.json().mailed);
      }
      expect(mailed).toEqual([true, true, false]);
    } finally {
      await small.close();
    }
  });

  it('unlinked: brackets what makes an address, leaves other names as they are', () => {
    expect(unlinked(BAIT)).toBe('Pay now at http[:]//evil[.]test/pay');
    expect(unlinked('www.evil.test')).toBe('www[.]evil[.]test');
    expect(unlinked('pay@evil.test')).toBe('pay[@]evil[.]test');
    expect(unlinked('evil。test')).toBe('evil[。]test');
    expect(unlinked('St. Mary’s School: grades 1–6')).toBe('St. Mary’s School: grades 1–6');
    expect(unlinked('Alpha District')).toBe('Alpha District');
  });
});
