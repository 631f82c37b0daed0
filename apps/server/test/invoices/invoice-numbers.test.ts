import type { Invoice, InvoicePage } from '@allot/domain/invoices';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { createInvoice } from '../../src/features/invoices/create-invoice';
import { nextInvoiceNumber } from '../../src/features/invoices/invoice-numbers';
import { NO_INVOICE_PAYMENT } from '../../src/features/invoices/invoice-payment';
import type { AuthUser } from '../../src/http/authenticate';
import { signedInCalls } from '../support/calls';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app';

/**
 * Invoice numbers that tell nothing of the platform's volume (issue 30, finding 7; CONTRACT §7; decision 010):
 * each organization has its own random code and its own sequence, without gaps.
 */
let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['systemAdmin', 'owner', 'schoolAdmin']);
});
afterAll(() => t.close());

const NUMBER = /^INV-([A-Z2-9]{6})-(\d{4})$/;
const partsOf = (number: string) => {
  const match = NUMBER.exec(number);
  if (!match) throw new Error(`not a number of a series: ${number}`);
  return { code: match[1] as string, n: Number(match[2]) };
};

async function credits(organizationId: string, who: 'owner' | 'schoolAdmin' = 'owner'): Promise<Invoice> {
  const answer = await api.post(who, '/api/invoice/create', {
    organizationId,
    kind: 'credits',
    credits: 1000,
    customerEmail: 'owner@alpha.test',
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}

describe('invoice numbers', () => {
  it('each organization counts from 0001 under a code of its own; one’s invoices move no other’s numbers', async () => {
    const { alpha, schoolA } = t.world.orgs;
    const a1 = partsOf((await credits(alpha)).number);
    const a2 = partsOf((await credits(alpha)).number);
    const a3 = partsOf((await credits(alpha)).number);
    const s1 = partsOf((await credits(schoolA, 'schoolAdmin')).number);
    const a4 = partsOf((await credits(alpha)).number);
    const s2 = partsOf((await credits(schoolA)).number);
    expect([a1.n, a2.n, a3.n, a4.n]).toEqual([1, 2, 3, 4]);
    expect([s1.n, s2.n]).toEqual([1, 2]);
    expect(new Set([a1.code, a2.code, a3.code, a4.code])).toEqual(new Set([a1.code]));
    expect(s2.code).toBe(s1.code);
    expect(s1.code).not.toBe(a1.code);
  });

  it('a create that rolls back gives its number back: no gaps', async () => {
    const { schoolB } = t.world.orgs;
    const first = partsOf((await credits(schoolB)).number);
    const owner: AuthUser = {
      sessionId: 'test',
      userId: t.world.users.owner.id,
      email: t.world.users.owner.email,
      name: t.world.users.owner.name,
      isSystemAdmin: false,
    };
    const input = {
      organizationId: schoolB,
      kind: 'credits' as const,
      credits: 1000,
      customerEmail: 'owner@alpha.test',
    };
    let taken = '';
    await expect(
      t.db.transaction(async (tx) => {
        taken = (await createInvoice(tx, owner, input, { publicUrl: TEST_PUBLIC_URL }, NO_INVOICE_PAYMENT))
          .number;
        throw new Error('the request failed after the invoice was written');
      }),
    ).rejects.toThrow('the request failed');
    expect(partsOf(taken).n).toBe(first.n + 1);
    const next = partsOf((await credits(schoolB)).number);
    expect(next).toEqual({ code: first.code, n: first.n + 1 });
  });

  it('a code another organization holds is drawn again', async () => {
    const { alpha, annex } = t.world.orgs;
    const [held] = await rows<{ code: string }>(
      t.db,
      sql`select code from invoice_series where organization_id = ${alpha}`,
    );
    expect(held?.code).toMatch(/^[A-Z2-9]{6}$/);
    const draws = [held?.code as string, 'ZZZZ22'];
    const number = await t.db.transaction((tx) =>
      nextInvoiceNumber(tx, annex, () => draws.shift() ?? 'ZZZZ33'),
    );
    expect(number).toBe('INV-ZZZZ22-0001');
    expect(draws).toEqual([]);
  });

  it('ten invoices of one organization at the same moment take 0001 to 0010, each once', async () => {
    const child = await api.post('owner', '/api/organization/create', {
      name: 'Numbering School',
      type: 'school',
      phoneNumber: '+1 555 000 3333',
      parentOrganizationId: t.world.orgs.alpha,
    });
    expect(child.statusCode, child.body).toBe(201);
    const answers = await Promise.all(Array.from({ length: 10 }, () => credits(child.json().id)));
    const parts = answers.map((a) => partsOf(a.number));
    expect(new Set(parts.map((p) => p.code)).size).toBe(1);
    expect(parts.map((p) => p.n).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('numbers given before keep their form and are still found by search', async () => {
    const { alpha } = t.world.orgs;
    const [old] = await rows<{ id: string }>(
      t.db,
      sql`insert into invoices (number, organization_id, kind, credits, description, customer_email, amount,
          currency, due_date)
        values ('INV-2026-000123', ${alpha}, 'credits', 1000, '1,000 AI credits', 'old@alpha.test', 1000, 'USD',
          now() + interval '30 days')
        returning id`,
    );
    const search = async (term: string) =>
      (
        (
          await api.get('owner', `/api/organization/${alpha}/invoices?search=${encodeURIComponent(term)}`)
        ).json() as InvoicePage
      ).data.map((i) => i.number);
    expect(await search('000123')).toEqual(['INV-2026-000123']);
    expect(await search('inv-2026-0001')).toEqual(['INV-2026-000123']);
    expect((await api.get('owner', `/api/invoice/${old?.id}`)).json().number).toBe('INV-2026-000123');

    const [series] = await rows<{ code: string }>(
      t.db,
      sql`select code from invoice_series where organization_id = ${alpha}`,
    );
    const code = series?.code as string;
    // A series number: by its own number, by its code with or without INV-, and in full.
    expect(await search('0002')).toEqual([`INV-${code}-0002`]);
    expect((await search(code.toLowerCase())).length).toBeGreaterThanOrEqual(4);
    expect(await search(`INV-${code}-0003`)).toEqual([`INV-${code}-0003`]);
  });
});
