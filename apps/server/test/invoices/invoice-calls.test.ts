import { INVOICE_MSG, type Invoice, type PriceList } from '@allot/domain/invoices';
import { MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { signedInCalls } from '../support/calls';
import { mailsTo } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';
import { giveLicense } from '../support/world';

let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['systemAdmin', 'owner', 'admin', 'schoolAdmin', 'betaOwner']);
});
afterAll(() => t.close());

const DAY = 86_400_000;
const CUSTOMER = 'billing@alpha.test';

async function licence(organizationId: string, type: string) {
  const [row] = await rows<{ id: string; max_users: number; expire_at: Date; log: string }>(
    t.db,
    sql`select l.id, l.max_users, l.expire_at,
        (select coalesce(sum(seats), 0) from license_events e where e.license_id = l.id) as log
      from licenses l where l.organization_id = ${organizationId} and l.license_type = ${type}`,
  );
  return row
    ? { id: row.id, seats: Number(row.max_users), log: Number(row.log), expireAt: new Date(row.expire_at) }
    : null;
}

async function pool(organizationId: string, kind: 'shared' | 'protected'): Promise<number> {
  const [row] = await rows<{ balance: string }>(
    t.db,
    sql`select balance::text from credit_accounts where organization_id = ${organizationId} and kind = ${kind}`,
  );
  return Number(row?.balance);
}

const protectedPool = (organizationId: string) => pool(organizationId, 'protected');

/** The SQLSTATE a statement is refused with (IN001: the invoice trigger), or 'accepted'. */
async function refusal(statement: ReturnType<typeof sql>): Promise<string | undefined> {
  try {
    await t.db.execute(statement);
    return 'accepted';
  } catch (error) {
    const cause = error as { cause?: { code?: string }; code?: string };
    return cause.cause?.code ?? cause.code;
  }
}

const create = (who: Parameters<typeof api.post>[0], body: object) =>
  api.post(who, '/api/invoice/create', {
    customerEmail: CUSTOMER,
    organizationId: t.world.orgs.alpha,
    ...body,
  });

async function created(body: object): Promise<Invoice> {
  const answer = await create('owner', body);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}

describe('GET and PUT /api/invoice/products', () => {
  it('answers the seeded price list, in minor units of one currency', async () => {
    const list = (await api.get('owner', '/api/invoice/products')).json() as PriceList;
    expect(list.currency).toBe('USD');
    expect(list.licenses.map((l) => [l.licenseType, l.pricePerSeatMonth, l.hasFreeTier])).toEqual([
      ['chorus', 400, false],
      ['tle_creator', 900, false],
      ['tle_teacher', 300, true],
      ['chorus_optoma', 600, false],
    ]);
    expect(list.creditPacks).toEqual([
      { credits: 1000, price: 1000 },
      { credits: 5000, price: 4500 },
      { credits: 20000, price: 16000 },
      { credits: 100000, price: 70000 },
    ]);
  });

  it('is changed by a system admin only; an invoice keeps the amount it was created with', async () => {
    const list = (await api.get('owner', '/api/invoice/products')).json() as PriceList;
    const before = await created({ kind: 'credits', credits: 1000 });
    const changed = {
      ...list,
      creditPacks: [
        ...list.creditPacks.map((p) => (p.credits === 1000 ? { ...p, price: 1200 } : p)),
        { credits: 2500, price: 2400 },
      ],
    };
    const byOwner = await t.app.inject({
      method: 'PUT',
      url: '/api/invoice/products',
      headers: {
        authorization: `Bearer ${await t.login(t.world.users.owner.email, 'correct-horse-battery')}`,
      },
      payload: changed,
    });
    expect(byOwner.statusCode).toBe(403);
    expect(byOwner.json().message).toBe(INVOICE_MSG.systemAdminOnly);
    const admin = await t.login(t.world.users.systemAdmin.email, 'correct-horse-battery');
    const put = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/invoice/products',
        headers: { authorization: `Bearer ${admin}` },
        payload,
      });
    const saved = await put(changed);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().creditPacks).toContainEqual({ credits: 2500, price: 2400 });
    expect((await created({ kind: 'credits', credits: 1000 })).amount).toBe(1200);
    const reread = (await api.get('owner', `/api/invoice/${before.id}`)).json() as Invoice;
    expect(reread.amount).toBe(1000);

    const missingType = await put({ ...list, licenses: list.licenses.slice(1) });
    expect(missingType.statusCode).toBe(400);
    expect(missingType.json().details.fields).toEqual({ licenses: 'Give every licence type a price, once.' });
    const negative = await put({
      ...list,
      licenses: list.licenses.map((l) => ({ ...l, pricePerSeatMonth: -1 })),
    });
    expect(negative.statusCode).toBe(400);
    expect(await put(list)).toMatchObject({ statusCode: 200 });
  });
});

describe('POST /api/invoice/create', () => {
  it('a new licence: seats × months × price, numbered in sequence, due in 30 days, mailed to the customer', async () => {
    const first = await created({
      kind: 'new_license',
      licenseType: 'tle_teacher',
      period: '1y',
      usersQuantity: 30,
    });
    const second = await created({
      kind: 'new_license',
      licenseType: 'tle_teacher',
      period: '3m',
      usersQuantity: 2,
    });
    expect(first).toMatchObject({
      status: 'open',
      kind: 'new_license',
      licenseType: 'tle_teacher',
      period: '1y',
      amount: 30 * 12 * 300,
      currency: 'USD',
      customerEmail: CUSTOMER,
      newUsersQuantity: 30,
      extendUsersQuantity: null,
      description: '30 TLE Teacher seats for 1 year',
      organizationName: 'Alpha District',
      createdBy: { id: t.world.users.owner.id },
    });
    expect(first.licenseExpirationDays).toBeGreaterThanOrEqual(365);
    expect(first.licenseExpirationDays).toBeLessThanOrEqual(366);
    expect(second.amount).toBe(2 * 3 * 300);
    // The organization's own series (decision 010): its code, then its next number.
    expect(first.number).toMatch(/^INV-[A-Z2-9]{6}-\d{4}$/);
    expect(second.number.slice(0, 11)).toBe(first.number.slice(0, 11));
    expect(Number(second.number.slice(-4))).toBe(Number(first.number.slice(-4)) + 1);
    expect(Date.parse(first.dueDate) - Date.parse(first.createdAt)).toBe(30 * DAY);

    const mail = (await mailsTo(t.db, CUSTOMER)).find((m) => m.subject.includes(first.number));
    expect(mail?.kind).toBe('invoice');
    expect(mail?.subject).toBe(`Invoice ${first.number} from Allot: $1,080.00`);
    const due = new Date(first.dueDate).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    for (const body of [mail?.text_body, mail?.html_body]) {
      expect(body).toContain('30 TLE Teacher seats for 1 year');
      expect(body).toContain('$1,080.00');
      expect(body).toContain(due);
      expect(body).toContain(`http://panel.test/${t.world.orgs.alpha}/invoices/${first.id}`);
    }
  });

  it('with an Idempotency-Key, a repeat answers the first invoice and creates nothing', async () => {
    const body = {
      kind: 'credits',
      credits: 20000,
      organizationId: t.world.orgs.alpha,
      customerEmail: 'once@alpha.test',
    };
    const key = { 'idempotency-key': `invoice-${crypto.randomUUID()}` };
    const first = await api.post('owner', '/api/invoice/create', body, key);
    const repeat = await api.post('owner', '/api/invoice/create', body, key);
    expect(first.statusCode).toBe(201);
    expect(repeat.statusCode).toBe(201);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(first.json());
    expect(await mailsTo(t.db, 'once@alpha.test')).toHaveLength(1);
    const other = await api.post('owner', '/api/invoice/create', { ...body, credits: 1000 }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('idempotency_key_reused');
  });

  it('refuses a new licence of a type the organization holds, with the spec’s 400 text', async () => {
    const again = await create('owner', {
      kind: 'new_license',
      licenseType: 'chorus',
      period: '1y',
      usersQuantity: 3,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      error: 'invalid_input',
      message: MSG.invoiceInvalid,
      details: { fields: { licenseType: INVOICE_MSG.hasLicense('chorus') } },
    });
  });

  it('answers invalid data with the spec’s 400 text and names each field', async () => {
    const missing = await create('owner', { kind: 'new_license', licenseType: 'tle_creator' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: MSG.invoiceInvalid,
      details: { fields: { period: MSG.required, usersQuantity: MSG.required } },
    });
    const zero = await create('owner', {
      kind: 'add_users',
      licenseId: t.world.alphaLicenseId,
      usersQuantity: 0,
    });
    expect(zero.json()).toMatchObject({
      message: MSG.invoiceInvalid,
      details: { fields: { usersQuantity: MSG.min(1) } },
    });
    const badKind = await create('owner', { kind: 'gift' });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().message).toBe(MSG.invoiceInvalid);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/invoice/create',
      headers: {
        authorization: `Bearer ${await t.login(t.world.users.owner.email, 'correct-horse-battery')}`,
        'content-type': 'application/json',
      },
      payload: '{"kind":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toBe(MSG.invoiceInvalid);
    const notAPack = await create('owner', { kind: 'credits', credits: 1234 });
    expect(notAPack.json()).toMatchObject({ message: MSG.invoiceInvalid });
    expect(notAPack.json().details.fields.credits).toMatch(/^Choose one of the credit packs: 1,000, /);
    const otherLicence = await create('owner', {
      kind: 'extend_license',
      licenseId: crypto.randomUUID(),
      period: '1y',
    });
    expect(otherLicence.json().details.fields).toEqual({
      licenseId: 'This organization has no such licence.',
    });
  });

  it('answers 401 and 403 with the spec’s texts, the same 403 for an organization the caller cannot see', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/invoice/create',
      payload: { kind: 'credits' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe(MSG.invoiceNotLoggedIn);
    const body = { kind: 'credits', credits: 1000 };
    for (const organizationId of [t.world.orgs.alpha, crypto.randomUUID(), 'not-an-id']) {
      const refused = await create('betaOwner', { ...body, organizationId });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'forbidden', message: INVOICE_MSG.forbidden });
    }
    // A school admin buys for the school, not for the district above it.
    const above = await create('schoolAdmin', body);
    expect(above.statusCode).toBe(403);
    expect((await create('schoolAdmin', { ...body, organizationId: t.world.orgs.schoolA })).statusCode).toBe(
      201,
    );
  });

  it('an extension pays for every seat it extends, those handed down too; a licence handed down follows its source', async () => {
    const moved = await api.post('owner', '/api/license/assign/organizations', {
      sourceOrganizationId: t.world.orgs.alpha,
      targetOrganizationIds: [t.world.orgs.schoolB],
      licenses: [{ type: 'chorus', amount: 5 }],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const invoice = await created({
      kind: 'extend_license',
      licenseId: t.world.alphaLicenseId,
      period: '2y',
    });
    expect(invoice).toMatchObject({
      extendUsersQuantity: 25,
      amount: 25 * 24 * 400,
      licenseId: t.world.alphaLicenseId,
    });
    expect(invoice.licenseExpirationDays).toBe(730); // 2030-01-01 to 2032-01-01: two years of 365 days
    const school = await licence(t.world.orgs.schoolB, 'chorus');
    const below = await api.post('admin', '/api/invoice/create', {
      organizationId: t.world.orgs.schoolB,
      kind: 'extend_license',
      licenseId: school?.id,
      period: '1y',
      customerEmail: CUSTOMER,
    });
    expect(below.statusCode).toBe(400);
    expect(below.json().details.fields).toEqual({ licenseId: INVOICE_MSG.followsAbove('Alpha District') });

    const fulfilled = await api.post('systemAdmin', `/api/invoice/${invoice.id}/fulfil`, {
      method: 'payment',
    });
    expect(fulfilled.statusCode, fulfilled.body).toBe(200);
    expect((await licence(t.world.orgs.alpha, 'chorus'))?.expireAt.toISOString()).toBe(
      '2032-01-01T00:00:00.000Z',
    );
    expect((await licence(t.world.orgs.schoolB, 'chorus'))?.expireAt.toISOString()).toBe(
      '2032-01-01T00:00:00.000Z',
    );
  });

  it('added seats pay for the months left on the licence; an expired licence takes none', async () => {
    const soon = await giveLicense(
      t.db,
      t.world.orgs.schoolA,
      'chorus_optoma',
      4,
      new Date(Date.now() + 95 * DAY).toISOString(),
    );
    const invoice = await api.post('schoolAdmin', '/api/invoice/create', {
      organizationId: t.world.orgs.schoolA,
      kind: 'add_users',
      licenseId: soon.id,
      usersQuantity: 3,
      customerEmail: CUSTOMER,
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    // 95 days are more than 3 calendar months (at most 92 days) and less than 4 (at least 120).
    expect(invoice.json()).toMatchObject({
      amount: 3 * 4 * 600,
      newUsersQuantity: 3,
      licenseExpirationDays: 95,
    });
    const past = await giveLicense(
      t.db,
      t.world.orgs.schoolA,
      'tle_creator',
      4,
      new Date(Date.now() - DAY).toISOString(),
    );
    const refused = await api.post('schoolAdmin', '/api/invoice/create', {
      organizationId: t.world.orgs.schoolA,
      kind: 'add_users',
      licenseId: past.id,
      usersQuantity: 1,
      customerEmail: CUSTOMER,
    });
    expect(refused.json().details.fields).toEqual({ licenseId: INVOICE_MSG.expired });
  });
});

describe('POST /api/invoice/{id}/fulfil and void', () => {
  it('applies a new licence once, logged with the invoice’s number; a second fulfil changes nothing', async () => {
    const invoice = await created({
      kind: 'new_license',
      licenseType: 'chorus_optoma',
      period: '6m',
      usersQuantity: 12,
    });
    const byOwner = await api.post('owner', `/api/invoice/${invoice.id}/fulfil`, { method: 'free' });
    expect(byOwner.statusCode).toBe(403);
    expect(byOwner.json().message).toBe(INVOICE_MSG.systemAdminOnly);
    expect(
      (await api.post('betaOwner', `/api/invoice/${invoice.id}/fulfil`, { method: 'free' })).statusCode,
    ).toBe(404);
    expect(await licence(t.world.orgs.alpha, 'chorus_optoma')).toBeNull();

    const done = await api.post('systemAdmin', `/api/invoice/${invoice.id}/fulfil`, {
      method: 'paid_out_of_band',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'fulfilled', fulfilmentMethod: 'paid_out_of_band' });
    const opened = await licence(t.world.orgs.alpha, 'chorus_optoma');
    expect(opened).toMatchObject({ seats: 12, log: 12 });
    const sixMonths = new Date();
    sixMonths.setUTCMonth(sixMonths.getUTCMonth() + 6);
    expect(Math.abs((opened?.expireAt.getTime() ?? 0) - sixMonths.getTime())).toBeLessThan(4 * DAY);

    const again = await api.post('systemAdmin', `/api/invoice/${invoice.id}/fulfil`, { method: 'payment' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(INVOICE_MSG.alreadyFulfilled);
    const voided = await api.post('systemAdmin', `/api/invoice/${invoice.id}/void`, {});
    expect(voided.json().message).toBe(INVOICE_MSG.voidFulfilled);
    expect(await licence(t.world.orgs.alpha, 'chorus_optoma')).toMatchObject({ seats: 12, log: 12 });

    const log = (
      await api.get('owner', `/api/organization/${t.world.orgs.alpha}/license-log?limit=5`)
    ).json();
    expect(log.data[0]).toMatchObject({
      action: 'purchased',
      licenseType: 'chorus_optoma',
      seats: 12,
      description: `Invoice ${invoice.number} (paid another way): 12 Chorus Optoma seats for 6 months`,
      by: { id: t.world.users.systemAdmin.id },
    });
    const [link] = await rows<{ id: string }>(
      t.db,
      sql`select e.id from invoices i join license_events e on e.id = i.license_event_id where i.id = ${invoice.id}`,
    );
    expect(link?.id).toBe(log.data[0].id);
  });

  it('adds bought credits to the pool the buyer chose, the shared one by default, with a purchase entry naming the invoice', async () => {
    const before = {
      shared: await pool(t.world.orgs.alpha, 'shared'),
      protected: await protectedPool(t.world.orgs.alpha),
    };
    const chosen = await created({ kind: 'credits', credits: 1000, creditPool: 'protected' });
    expect(chosen.creditPool).toBe('protected');
    await api.post('systemAdmin', `/api/invoice/${chosen.id}/fulfil`, { method: 'payment' });
    expect(await protectedPool(t.world.orgs.alpha)).toBe(before.protected + 1000);

    const invoice = await created({ kind: 'credits', credits: 5000 });
    expect(invoice).toMatchObject({
      amount: 4500,
      credits: 5000,
      description: '5,000 AI credits',
      creditPool: 'shared',
    });
    const done = await api.post('systemAdmin', `/api/invoice/${invoice.id}/fulfil`, { method: 'payment' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().creditPool).toBe('shared');
    expect(await pool(t.world.orgs.alpha, 'shared')).toBe(before.shared + 5000);
    expect(await protectedPool(t.world.orgs.alpha)).toBe(before.protected + 1000);
    const log = (await api.get('owner', `/api/organization/${t.world.orgs.alpha}/credit-log?limit=1`)).json();
    expect(log.data[0]).toMatchObject({
      action: 'purchase',
      credits: 5000,
      description: `Invoice ${invoice.number} (fulfil): 5,000 AI credits`,
    });
  });

  it('fulfils a credits invoice made before the buyer chose a pool into the protected pool, as it said', async () => {
    const invoice = await created({ kind: 'credits', credits: 1000 });
    // As migration 0039 leaves the invoices before it: no pool kept. IN001 refuses the change (the pool is part of
    // what an invoice sold), so the test writes it with the triggers off, as the old code wrote it.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update invoices set credit_pool = null where id = ${invoice.id}`);
    });
    expect(await refusal(sql`update invoices set credit_pool = 'shared' where id = ${invoice.id}`)).toBe(
      'IN001',
    );
    const read = (await api.get('owner', `/api/invoice/${invoice.id}`)).json() as Invoice;
    expect(read.creditPool).toBe('protected');
    const before = await protectedPool(t.world.orgs.alpha);
    expect(
      (await api.post('systemAdmin', `/api/invoice/${invoice.id}/fulfil`, { method: 'free' })).statusCode,
    ).toBe(200);
    expect(await protectedPool(t.world.orgs.alpha)).toBe(before + 1000);
    const seats = await created({ kind: 'add_users', licenseId: t.world.alphaLicenseId, usersQuantity: 1 });
    expect(seats.creditPool).toBeNull();
    await api.post('systemAdmin', `/api/invoice/${seats.id}/void`, {});
  });

  it('refuses a pool on an invoice that buys no credits, on that field', async () => {
    const answer = await create('owner', {
      kind: 'add_users',
      licenseId: t.world.alphaLicenseId,
      usersQuantity: 1,
      creditPool: 'shared',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      error: 'invalid_input',
      message: MSG.invoiceInvalid,
      details: { fields: { creditPool: INVOICE_MSG.poolOnlyForCredits } },
    });
  });

  it('adds bought seats to the licence', async () => {
    const invoice = await created({ kind: 'add_users', licenseId: t.world.alphaLicenseId, usersQuantity: 7 });
    const seats = (await licence(t.world.orgs.alpha, 'chorus'))?.seats ?? 0;
    await api.post('systemAdmin', `/api/invoice/${invoice.id}/fulfil`, { method: 'payment' });
    expect(await licence(t.world.orgs.alpha, 'chorus')).toMatchObject({ seats: seats + 7, log: seats + 7 });
  });

  it('voids an open invoice, which then cannot be fulfilled', async () => {
    const invoice = await created({ kind: 'credits', credits: 1000 });
    expect((await api.post('admin', `/api/invoice/${invoice.id}/void`, {})).statusCode).toBe(403);
    const voided = await api.post('systemAdmin', `/api/invoice/${invoice.id}/void`, {});
    expect(voided.json()).toMatchObject({ status: 'void' });
    expect(voided.json().voidedAt).not.toBeNull();
    const fulfil = await api.post('systemAdmin', `/api/invoice/${invoice.id}/fulfil`, { method: 'free' });
    expect(fulfil.statusCode).toBe(409);
    expect(fulfil.json().message).toBe(INVOICE_MSG.isVoid);
    expect((await api.post('systemAdmin', `/api/invoice/${invoice.id}/void`, {})).json().message).toBe(
      INVOICE_MSG.alreadyVoid,
    );
  });

  it('refuses a new licence whose type the organization received meanwhile, and a licence deleted meanwhile', async () => {
    const invoice = await api.post('schoolAdmin', '/api/invoice/create', {
      organizationId: t.world.orgs.annex,
      kind: 'new_license',
      licenseType: 'tle_teacher',
      period: '1y',
      usersQuantity: 1,
      customerEmail: CUSTOMER,
    });
    await giveLicense(t.db, t.world.orgs.annex, 'tle_teacher', 1);
    const refused = await api.post('systemAdmin', `/api/invoice/${invoice.json().id}/fulfil`, {
      method: 'payment',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(INVOICE_MSG.licenseExistsNow('tle_teacher'));
    expect((await api.get('schoolAdmin', `/api/invoice/${invoice.json().id}`)).json().status).toBe('open');

    const gone = await giveLicense(t.db, t.world.orgs.annex, 'chorus', 2);
    const more = await api.post('schoolAdmin', '/api/invoice/create', {
      organizationId: t.world.orgs.annex,
      kind: 'add_users',
      licenseId: gone.id,
      usersQuantity: 1,
      customerEmail: CUSTOMER,
    });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/license/${gone.id}/delete`,
      headers: {
        authorization: `Bearer ${await t.login(t.world.users.systemAdmin.email, 'correct-horse-battery')}`,
      },
    });
    expect(deleted.statusCode).toBe(200);
    const lost = await api.post('systemAdmin', `/api/invoice/${more.json().id}/fulfil`, {
      method: 'payment',
    });
    expect(lost.statusCode).toBe(409);
    expect(lost.json().message).toBe(INVOICE_MSG.licenseGone);
  });

  it('ten fulfils at the same moment apply the purchase once', async () => {
    const invoice = await created({
      kind: 'new_license',
      licenseType: 'tle_creator',
      period: '1y',
      usersQuantity: 9,
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post('systemAdmin', `/api/invoice/${invoice.id}/fulfil`, { method: 'payment' }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(await licence(t.world.orgs.alpha, 'tle_creator')).toMatchObject({ seats: 9, log: 9 });
    const [purchases] = await rows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from license_events where description like ${`Invoice ${invoice.number} %`}`,
    );
    expect(purchases?.n).toBe('1');
  });

  it('the database keeps a fulfilled invoice as it is, whatever code tries', async () => {
    const invoice = await created({ kind: 'credits', credits: 1000 });
    await api.post('systemAdmin', `/api/invoice/${invoice.id}/fulfil`, { method: 'free' });
    expect(await refusal(sql`update invoices set status = 'open' where id = ${invoice.id}`)).toBe('IN001');
    expect(await refusal(sql`update invoices set amount = 1 where id = ${invoice.id}`)).toBe('IN001');
    expect(await refusal(sql`delete from invoices where id = ${invoice.id}`)).toBe('IN001');
    const open = await created({ kind: 'credits', credits: 1000 });
    expect(await refusal(sql`update invoices set amount = 1 where id = ${open.id}`)).toBe('IN001');
    // Fulfilled without the entry that applied it: refused by the table's check.
    expect(
      await refusal(
        sql`update invoices set status = 'fulfilled', fulfilled_at = now(), fulfilment_method = 'free' where id = ${open.id}`,
      ),
    ).toBe('23514');
  });
});

describe('GET /api/organization/{id}/invoices and /api/invoice/{id}', () => {
  it('lists an organization’s invoices a page at a time, sorted and searched', async () => {
    const page = (
      await api.get('owner', `/api/organization/${t.world.orgs.alpha}/invoices?limit=3&key=number&order=desc`)
    ).json();
    expect(page.data).toHaveLength(3);
    expect(page.pagination).toMatchObject({
      limit: 3,
      key: 'number',
      order: 'desc',
      hasNext: true,
      hasPrev: false,
    });
    const numbers = page.data.map((i: Invoice) => i.number);
    expect([...numbers].sort().reverse()).toEqual(numbers);
    const all = (await api.get('owner', `/api/organization/${t.world.orgs.alpha}/invoices?limit=100`)).json();
    expect(all.pagination.total).toBe(all.data.length);
    expect(all.data.every((i: Invoice) => i.organizationId === t.world.orgs.alpha)).toBe(true);
    const one = all.data[0] as Invoice;
    const byNumber = (
      await api.get(
        'owner',
        `/api/organization/${t.world.orgs.alpha}/invoices?search=${one.number.slice(-4)}`,
      )
    ).json();
    expect(byNumber.data.map((i: Invoice) => i.id)).toEqual([one.id]);
    const byEmail = (
      await api.get('owner', `/api/organization/${t.world.orgs.alpha}/invoices?search=BILLING&limit=100`)
    ).json();
    expect(byEmail.pagination.total).toBe(
      all.data.filter((i: Invoice) => i.customerEmail === CUSTOMER).length,
    );
    expect(byEmail.pagination.total).toBeLessThan(all.pagination.total);
    expect(
      (await api.get('owner', `/api/organization/${t.world.orgs.alpha}/invoices?key=price`)).statusCode,
    ).toBe(400);
    expect((await api.get('betaOwner', `/api/organization/${t.world.orgs.alpha}/invoices`)).statusCode).toBe(
      404,
    );
    expect((await api.get('betaOwner', `/api/invoice/${one.id}`)).statusCode).toBe(404);
    expect((await api.get('schoolAdmin', `/api/invoice/${one.id}`)).statusCode).toBe(404);
    expect((await api.get('admin', `/api/invoice/${one.id}`)).json()).toEqual(one);
  });
});
