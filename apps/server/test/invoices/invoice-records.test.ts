import { INVOICE_MSG, type Invoice, type InvoicePage } from '@allot/domain/invoices';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { signedInCalls } from '../support/calls';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

/**
 * CONTRACT §7: invoices are records and outlive their organization (issue 30, finding 7; decision 010). A system
 * admin still reads them; the list of the organization above shows them, marked; nobody outside sees them; an
 * open one is voided with its organization.
 */
let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['systemAdmin', 'owner', 'admin', 'schoolAdmin', 'betaOwner']);
});
afterAll(() => t.close());

async function invoice(organizationId: string, body: object): Promise<Invoice> {
  const answer = await api.post('owner', '/api/invoice/create', {
    organizationId,
    customerEmail: 'owner@alpha.test',
    ...body,
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}

async function deleteOrganization(id: string) {
  const token = await t.login(t.world.users.owner.email, PASSWORD);
  return t.app.inject({ method: 'DELETE', url: `/api/organization/${id}/delete`, headers: bearer(token) });
}

const list = async (who: Parameters<typeof api.get>[0], organizationId: string) => {
  const answer = await api.get(who, `/api/organization/${organizationId}/invoices?limit=100`);
  return {
    status: answer.statusCode,
    page: answer.statusCode === 200 ? (answer.json() as InvoicePage) : null,
  };
};

describe('invoices outlive their organization', () => {
  it('a deleted school’s invoices: voided if open, read by a system admin, listed and marked under the district, hidden from others', async () => {
    const { alpha, schoolB } = t.world.orgs;
    const paid = await invoice(schoolB, { kind: 'credits', credits: 1000 });
    expect(
      (await api.post('systemAdmin', `/api/invoice/${paid.id}/fulfil`, { method: 'payment' })).statusCode,
    ).toBe(200);
    const open = await invoice(schoolB, { kind: 'credits', credits: 5000 });
    expect(open.organizationDeleted).toBe(false);
    const before = await list('owner', alpha);
    expect(before.page?.data.map((i) => i.id)).not.toContain(paid.id);

    expect((await deleteOrganization(schoolB)).statusCode).toBe(200);

    // A system admin reads each invoice and the deleted organization's list.
    const read = await api.get('systemAdmin', `/api/invoice/${paid.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      id: paid.id,
      status: 'fulfilled',
      organizationId: schoolB,
      organizationName: 'Alpha School B',
      organizationDeleted: true,
    });
    const own = await list('systemAdmin', schoolB);
    expect(own.status).toBe(200);
    expect(own.page?.data.map((i) => i.id).sort()).toEqual([paid.id, open.id].sort());

    // The open one was voided with its organization, in the delete's transaction, and says why in the audit log.
    const voided = (await api.get('systemAdmin', `/api/invoice/${open.id}`)).json() as Invoice;
    expect(voided).toMatchObject({ status: 'void', organizationDeleted: true });
    expect(voided.voidedAt).not.toBeNull();
    const fulfil = await api.post('systemAdmin', `/api/invoice/${open.id}/fulfil`, { method: 'payment' });
    expect(fulfil.statusCode).toBe(409);
    expect(fulfil.json().message).toBe(INVOICE_MSG.isVoid);
    const [audit] = await rows<{ target_label: string; actor_id: string }>(
      t.db,
      sql`select target_label, actor_id from audit_events where action = 'invoice_voided' and target_id = ${open.id}`,
    );
    expect(audit).toEqual({
      target_label: `Invoice ${open.number}: 5,000 AI credits (its organization was deleted)`,
      actor_id: t.world.users.owner.id,
    });

    // The district's owners and admins see them in the district's list, marked, and open each one.
    for (const who of ['owner', 'admin'] as const) {
      const district = await list(who, alpha);
      const shown = district.page?.data.filter((i) => i.organizationId === schoolB) ?? [];
      expect(shown.map((i) => i.id).sort()).toEqual([paid.id, open.id].sort());
      expect(shown.every((i) => i.organizationDeleted && i.organizationName === 'Alpha School B')).toBe(true);
      expect(
        district.page?.data.filter((i) => i.organizationId === alpha).every((i) => !i.organizationDeleted),
      ).toBe(true);
      expect((await api.get(who, `/api/invoice/${paid.id}`)).statusCode).toBe(200);
      expect((await list(who, schoolB)).status).toBe(200);
    }
    // Search and sort reach them too.
    const found = await api.get(
      'owner',
      `/api/organization/${alpha}/invoices?search=${paid.number.slice(-4)}`,
    );
    expect((found.json() as InvoicePage).data.map((i) => i.id)).toContain(paid.id);

    // Nobody outside: another tenant's owner, an admin of a sibling school.
    for (const who of ['betaOwner', 'schoolAdmin'] as const) {
      expect((await api.get(who, `/api/invoice/${paid.id}`)).statusCode).toBe(404);
      expect((await list(who, schoolB)).status).toBe(404);
    }
    expect((await list('schoolAdmin', t.world.orgs.schoolA)).page?.data.map((i) => i.id)).not.toContain(
      paid.id,
    );
  });

  it('a chain of deleted organizations: their invoices go up to the nearest one alive; a deleted root’s to system admins only', async () => {
    const { alpha, schoolA, annex } = t.world.orgs;
    const ofAnnex = await invoice(annex, { kind: 'credits', credits: 1000 });
    const ofSchool = await invoice(schoolA, { kind: 'credits', credits: 1000 });
    expect((await deleteOrganization(annex)).statusCode).toBe(200);
    // School A's admin manages School A, so reads the annex's invoices in its list.
    expect((await list('schoolAdmin', schoolA)).page?.data.map((i) => i.id)).toContain(ofAnnex.id);
    expect((await api.get('schoolAdmin', `/api/invoice/${ofAnnex.id}`)).statusCode).toBe(200);

    expect((await deleteOrganization(schoolA)).statusCode).toBe(200);
    // Its memberships ended with it: the school's admin, who held no other role, lost the panel and with it
    // the session (CONTRACT §3).
    expect((await api.get('schoolAdmin', `/api/invoice/${ofAnnex.id}`)).statusCode).toBe(401);
    const district = (await list('owner', alpha)).page?.data ?? [];
    expect(district.filter((i) => i.organizationDeleted).map((i) => i.id)).toEqual(
      expect.arrayContaining([ofAnnex.id, ofSchool.id]),
    );
    expect((await api.get('owner', `/api/invoice/${ofAnnex.id}`)).json()).toMatchObject({
      organizationName: 'Alpha Annex',
      organizationDeleted: true,
      status: 'void',
    });

    // A deleted root: only system admins read its invoices.
    const { beta } = t.world.orgs;
    const ofBeta = await api.post('betaOwner', '/api/invoice/create', {
      organizationId: beta,
      kind: 'credits',
      credits: 1000,
      customerEmail: 'owner@beta.test',
    });
    expect(ofBeta.statusCode).toBe(201);
    const admin = await t.login(t.world.users.systemAdmin.email, PASSWORD);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/organization/${beta}/delete`,
      headers: bearer(admin),
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await api.get('systemAdmin', `/api/invoice/${ofBeta.json().id}`)).statusCode).toBe(200);
    expect((await list('systemAdmin', beta)).page?.data.map((i) => i.id)).toEqual([ofBeta.json().id]);
    // Beta's owner held no other role: the delete ended the session too (CONTRACT §3). Another tenant: 404.
    expect((await api.get('betaOwner', `/api/invoice/${ofBeta.json().id}`)).statusCode).toBe(401);
    expect((await api.get('owner', `/api/invoice/${ofBeta.json().id}`)).statusCode).toBe(404);
  });

  it('a delete and a fulfil at the same moment: the invoice is either fulfilled before the delete or void after it', async () => {
    const { alpha } = t.world.orgs;
    const outcomes = new Set<string>();
    for (let round = 0; round < 4; round++) {
      const child = await api.post('owner', '/api/organization/create', {
        name: `Race School ${round}`,
        type: 'school',
        phoneNumber: '+1 555 000 2222',
        parentOrganizationId: alpha,
      });
      expect(child.statusCode, child.body).toBe(201);
      const id = child.json().id as string;
      const open = await invoice(id, { kind: 'credits', credits: 1000 });
      const [fulfilled, deleted] = await Promise.all([
        api.post('systemAdmin', `/api/invoice/${open.id}/fulfil`, { method: 'payment' }),
        deleteOrganization(id),
      ]);
      expect(deleted.statusCode, deleted.body).toBe(200);
      const after = (await api.get('owner', `/api/invoice/${open.id}`)).json() as Invoice;
      if (fulfilled.statusCode === 200) {
        expect(after.status).toBe('fulfilled');
        // The credits arrived (in the shared pool, the buyer's default), then went up with the delete.
        const [moved] = await rows<{ n: string }>(
          t.db,
          sql`select count(*)::text as n from credit_transactions where action = 'organization_deleted'
              and description = ${`Race School ${round} was deleted: its shared pool went back`}`,
        );
        expect(moved?.n).toBe('1');
      } else {
        expect(fulfilled.statusCode).toBe(409);
        expect(fulfilled.json().message).toBe(INVOICE_MSG.isVoid);
        expect(after.status).toBe('void');
      }
      outcomes.add(after.status);
    }
    expect([...outcomes].every((s) => s === 'fulfilled' || s === 'void')).toBe(true);
  });
});
