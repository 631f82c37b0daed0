import type { Invoice, InvoicePage } from '@allot/domain/invoices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCalls } from '../support/calls';
import { mailsTo } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';

/** CONTRACT §7: the buyer's purchase-order number, and the system admins' billing queue (issue 33). */
let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['systemAdmin', 'owner', 'betaOwner']);
});
afterAll(() => t.close());

async function buy(who: 'owner' | 'betaOwner', organizationId: string, extra: object = {}): Promise<Invoice> {
  const answer = await api.post(who, '/api/invoice/create', {
    organizationId,
    kind: 'credits',
    credits: 1000,
    customerEmail: who === 'owner' ? 'owner@alpha.test' : 'owner@beta.test',
    ...extra,
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}

describe('a purchase order number', () => {
  it('is kept on the invoice, shown in its mail, and may be left out', async () => {
    const invoice = await buy('owner', t.world.orgs.alpha, { purchaseOrder: '  PO-2026-0042 ' });
    expect(invoice.purchaseOrder).toBe('PO-2026-0042');
    const mail = (await mailsTo(t.db, 'owner@alpha.test')).find((m) => m.subject.includes(invoice.number));
    expect(mail?.text_body).toContain('Your purchase order: PO-2026-0042.');
    expect((await buy('owner', t.world.orgs.alpha)).purchaseOrder).toBeNull();
    expect((await buy('owner', t.world.orgs.alpha, { purchaseOrder: '' })).purchaseOrder).toBeNull();
    const tooLong = await api.post('owner', '/api/invoice/create', {
      organizationId: t.world.orgs.alpha,
      kind: 'credits',
      credits: 1000,
      customerEmail: 'owner@alpha.test',
      purchaseOrder: 'P'.repeat(61),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().details.fields.purchaseOrder).toBe('At most 60 characters.');
  });
});

describe('GET /api/invoices, the billing queue', () => {
  it('lists every organization’s invoices for a system admin, by status and search; 403 for anyone else', async () => {
    const alpha = await buy('owner', t.world.orgs.alpha);
    const beta = await buy('betaOwner', t.world.orgs.beta);
    const page = async (query: string) => {
      const answer = await api.get('systemAdmin', `/api/invoices?limit=100&${query}`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<InvoicePage>();
    };
    const open = await page('status=open&key=createdAt&order=desc');
    const numbers = open.data.map((i) => i.number);
    expect(numbers).toEqual(expect.arrayContaining([alpha.number, beta.number]));
    expect(open.data.every((i) => i.status === 'open')).toBe(true);
    expect(new Set(open.data.map((i) => i.organizationName))).toEqual(
      new Set(['Alpha District', 'Beta Network']),
    );
    expect((await page('status=fulfilled')).data).toEqual([]);
    expect((await page(`search=${encodeURIComponent(beta.number)}`)).data.map((i) => i.id)).toEqual([
      beta.id,
    ]);
    const ordered = await buy('betaOwner', t.world.orgs.beta, { purchaseOrder: 'PO-Beta-7731' });
    expect((await page('search=po-beta-77')).data.map((i) => i.id)).toEqual([ordered.id]);
    const ownList = await api.get(
      'betaOwner',
      `/api/organization/${t.world.orgs.beta}/invoices?search=PO-BETA`,
    );
    expect(ownList.json<InvoicePage>().data.map((i) => i.id)).toEqual([ordered.id]);
    expect((await page('search=7731')).data).toEqual([]);
    expect((await api.get('owner', '/api/invoices')).statusCode).toBe(403);
    expect((await api.get('systemAdmin', '/api/invoices?status=paid')).statusCode).toBe(400);
  });
});
