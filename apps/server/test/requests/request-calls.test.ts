import { MSG } from '@allot/domain/messages';
import { REQUEST_MSG, type RequestPage, type UpTreeRequest } from '@allot/domain/requests';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { linkIn, mailsTo } from '../support/outbox';
import { bearer, createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app';
import { giveLicense, sessionFor } from '../support/world';
import { poolsOf, requestCalls, schoolWithAdmin, seatsOf } from './request-support';

/**
 * Requests up the tree (CONTRACT §11, decision 017): Alpha School A (Sid, its admin) asks Alpha District (Olga the
 * owner, Ada an admin; 500 credits shared, 200 protected, 25 Chorus seats) for credits and seats.
 */
let t: TestApp;
let api: ReturnType<typeof requestCalls>;
let orgs: TestApp['world']['orgs'];
let users: TestApp['world']['users'];

beforeAll(async () => {
  t = await createTestApp();
  api = requestCalls(t);
  ({ orgs, users } = t.world);
});
afterAll(() => t.close());

const credits = (amount: number, extra: object = {}) => ({ kind: 'credits', amount, ...extra });

async function auditOf(organizationId: string, action: string) {
  return rows<{
    organization_id: string;
    actor_id: string;
    target_type: string;
    target_id: string;
    target_label: string;
    after: unknown;
  }>(
    t.db,
    sql`select organization_id, actor_id, target_type, target_id, target_label, after from audit_events
        where action = ${action} and organization_id = ${organizationId} order by seq`,
  );
}

describe('asking', () => {
  it('opens a request of the organization directly above, mails its owner and admins, audit-logs it', async () => {
    const answer = await api.ask(
      'schoolAdmin',
      orgs.schoolA,
      credits(500, { note: 'Essays until June. See http://evil.test' }),
    );
    expect(answer.statusCode, answer.body).toBe(201);
    const request = answer.json<UpTreeRequest>();
    expect(request).toMatchObject({
      status: 'open',
      kind: 'credits',
      amount: 500,
      pool: 'shared',
      licenseType: null,
      organization: { id: orgs.schoolA, name: 'Alpha School A' },
      parentOrganization: { id: orgs.alpha, name: 'Alpha District' },
      createdBy: { id: users.schoolAdmin.id, name: users.schoolAdmin.name, email: users.schoolAdmin.email },
      decidedAt: null,
      decidedBy: null,
      approvedAmount: null,
      reason: null,
    });

    const [entry] = (await auditOf(orgs.schoolA, 'request_created')).filter(
      (e) => e.target_id === request.id,
    );
    expect(entry).toMatchObject({
      actor_id: users.schoolAdmin.id,
      target_type: 'request',
      target_label: '500 credits (shared pool)',
    });
    // The district's audit log covers its subtree: the one entry in the school shows there too.
    const districtLog = await api.get(
      'owner',
      `/api/organization/${orgs.alpha}/audit-log?action=request_created`,
    );
    expect(districtLog.json<{ data: { target: { id: string } }[] }>().data.map((e) => e.target.id)).toContain(
      request.id,
    );

    for (const manager of [users.owner, users.admin]) {
      const [mail] = (await mailsTo(t.db, manager.email)).filter((m) => m.kind === 'request_created');
      expect(mail?.subject).toBe('Alpha School A asks for 500 credits (shared pool)');
      expect(mail?.text_body).toContain('Asked by Sid School (admin@school-a.test).');
      expect(mail?.text_body).toContain('Their note: “Essays until June. See http[:]//evil[.]test”');
      // The link opens this request on the district's Requests screen (issue 33), not just the list.
      expect(linkIn(mail?.text_body ?? '').href).toBe(
        `${TEST_PUBLIC_URL}/${orgs.alpha}/requests?request=${request.id}`,
      );
    }
    // An account not confirmed yet gets nothing; nor does the asker.
    expect(await mailsTo(t.db, users.unverified.email)).toEqual([]);
    expect(
      (await mailsTo(t.db, users.schoolAdmin.email)).filter((m) => m.kind.startsWith('request')),
    ).toEqual([]);
  });

  it('asks for seats of a licence type, which is required', async () => {
    const seats = await api.ask('schoolAdmin', orgs.schoolA, {
      kind: 'seats',
      amount: 3,
      licenseType: 'chorus',
      pool: 'protected',
    });
    expect(seats.statusCode, seats.body).toBe(201);
    expect(seats.json()).toMatchObject({ kind: 'seats', amount: 3, licenseType: 'chorus', pool: null });
    const missing = await api.ask('schoolAdmin', orgs.schoolA, { kind: 'seats', amount: 3 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      details: { fields: { licenseType: REQUEST_MSG.licenseTypeRequired } },
    });
    for (const amount of [0, -1, 1.5, 'many']) {
      expect((await api.ask('schoolAdmin', orgs.schoolA, credits(amount as number))).statusCode).toBe(400);
    }
  });

  it('a top-level organization has nobody to ask: 422', async () => {
    const answer = await api.ask('owner', orgs.alpha, credits(10));
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toEqual({ error: 'business_rule', message: REQUEST_MSG.noParent });
  });

  it('someone who does not manage the organization: 404, as for an organization of nothing', async () => {
    for (const who of ['teacher', 'betaOwner'] as const) {
      const answer = await api.ask(who, orgs.schoolA, credits(10));
      expect(answer.statusCode, who).toBe(404);
    }
  });

  it('an admin above may ask in the name of a school below (their role reaches it)', async () => {
    const answer = await api.ask('admin', orgs.schoolB, credits(5));
    expect(answer.statusCode, answer.body).toBe(201);
  });
});

describe('listing', () => {
  it('incoming: the requests of the organizations directly below; outgoing: its own; newest first', async () => {
    const school = await schoolWithAdmin(t, orgs.alpha, 'List School');
    const first = await api.asked(school.admin.id, school.id, credits(1));
    const second = await api.asked(school.admin.id, school.id, credits(2));
    const outgoing = await api.get(
      school.admin.id,
      `/api/organization/${school.id}/requests?direction=outgoing`,
    );
    expect(outgoing.statusCode, outgoing.body).toBe(200);
    const page = outgoing.json<RequestPage>();
    expect(page.data.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(page.pagination).toMatchObject({
      page: 1,
      limit: 20,
      total: 2,
      totalPages: 1,
      hasNext: false,
      key: 'createdAt',
      order: 'desc',
    });

    const incoming = await api.get(
      'owner',
      `/api/organization/${orgs.alpha}/requests?direction=incoming&limit=100`,
    );
    const ids = incoming.json<RequestPage>().data.map((r) => r.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    // The school's own incoming list holds nothing of its parent's.
    const own = await api.get(school.admin.id, `/api/organization/${school.id}/requests`);
    expect(own.json<RequestPage>().data).toEqual([]);

    await api.cancel(school.admin.id, first.id);
    const open = await api.get('owner', `/api/organization/${orgs.alpha}/requests?status=open&limit=100`);
    const openIds = open.json<RequestPage>().data.map((r) => r.id);
    expect(openIds).toContain(second.id);
    expect(openIds).not.toContain(first.id);
    const paged = await api.get(
      school.admin.id,
      `/api/organization/${school.id}/requests?direction=outgoing&limit=1&page=2`,
    );
    expect(paged.json<RequestPage>()).toMatchObject({
      data: [{ id: first.id }],
      pagination: { total: 2, hasPrev: true, hasNext: false },
    });
  });

  it('one request by id: both sides read it, named as their lists name people; anyone else 404', async () => {
    const school = await schoolWithAdmin(t, orgs.alpha, 'Linked School');
    const asked = await api.asked(school.admin.id, school.id, credits(7, { note: 'For the mail link' }));
    for (const who of [school.admin.id, 'owner', 'admin', 'systemAdmin'] as const) {
      const answer = await api.get(who, `/api/request/${asked.id}`);
      expect(answer.statusCode, `${who}: ${answer.body}`).toBe(200);
      expect(answer.json<UpTreeRequest>()).toEqual(asked);
    }
    // The answer follows what happened since.
    await api.decline('owner', asked.id, 'Not this week.');
    const declined = await api.get(school.admin.id, `/api/request/${asked.id}`);
    expect(declined.json<UpTreeRequest>()).toMatchObject({
      status: 'declined',
      reason: 'Not this week.',
      decidedBy: { id: users.owner.id },
    });
    // Another school's admin, a teacher, another tenant: as for an id of nothing.
    for (const who of ['schoolAdmin', 'teacher', 'betaOwner'] as const) {
      expect((await api.get(who, `/api/request/${asked.id}`)).statusCode, who).toBe(404);
    }
    expect((await api.get('owner', '/api/request/9c8b7a6f-5e4d-4c3b-a291-0f1e2d3c4b5a')).statusCode).toBe(
      404,
    );
    expect((await api.get('owner', '/api/request/not-an-id')).statusCode).toBe(404);
  });

  it('outsiders and teachers: 404; a bad direction or status: 400', async () => {
    for (const who of ['teacher', 'betaOwner'] as const) {
      expect((await api.get(who, `/api/organization/${orgs.schoolA}/requests`)).statusCode, who).toBe(404);
    }
    expect(
      (await api.get('owner', `/api/organization/${orgs.alpha}/requests?direction=sideways`)).statusCode,
    ).toBe(400);
    expect((await api.get('owner', `/api/organization/${orgs.alpha}/requests?status=maybe`)).statusCode).toBe(
      400,
    );
  });

  it('names someone who has left the organizations involved as someone outside this organization', async () => {
    const school = await schoolWithAdmin(t, orgs.alpha, 'Leaving School');
    const asked = await api.asked(school.admin.id, school.id, credits(3));
    await t.db.execute(sql`delete from memberships where user_id = ${school.admin.id}`);
    const incoming = await api.get('owner', `/api/organization/${orgs.alpha}/requests?limit=100`);
    const found = incoming.json<RequestPage>().data.find((r) => r.id === asked.id);
    expect(found?.createdBy).toEqual({ id: null, name: 'Someone outside this organization', email: null });
  });
});

describe('approving', () => {
  it('moves the credits from the shared pool above into the asked pool, with the credit log and audit entries', async () => {
    const asked = await api.asked('schoolAdmin', orgs.schoolA, credits(120, { pool: 'protected' }));
    const before = { district: await poolsOf(t, orgs.alpha), school: await poolsOf(t, orgs.schoolA) };
    // No body: all that was asked.
    const answer = await api.post('admin', `/api/request/${asked.id}/approve`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      id: asked.id,
      status: 'approved',
      approvedAmount: 120,
      decidedBy: { id: users.admin.id, name: users.admin.name },
    });
    expect(await poolsOf(t, orgs.alpha)).toEqual({
      ...before.district,
      shared: before.district.shared - 120,
    });
    expect(await poolsOf(t, orgs.schoolA)).toEqual({
      ...before.school,
      protected: before.school.protected + 120,
    });

    const log = await api.get('schoolAdmin', `/api/organization/${orgs.schoolA}/credit-log`);
    expect(log.json<{ data: unknown[] }>().data[0]).toMatchObject({
      action: 'assign_organizations',
      credits: 120,
      by: { id: users.admin.id },
    });
    const moved = await rows<{ organization_id: string }>(
      t.db,
      sql`select organization_id from audit_events where action = 'credits_moved' and actor_id = ${users.admin.id}
          and created_at > now() - interval '1 minute'`,
    );
    expect(moved.map((m) => m.organization_id).sort()).toEqual([orgs.alpha, orgs.schoolA].sort());
    const [approved] = (await auditOf(orgs.schoolA, 'request_approved')).filter(
      (e) => e.target_id === asked.id,
    );
    expect(approved).toMatchObject({
      actor_id: users.admin.id,
      target_label: '120 credits (protected pool)',
      after: { status: 'approved', approvedAmount: 120 },
    });

    const [mail] = (await mailsTo(t.db, users.schoolAdmin.email)).filter(
      (m) => m.kind === 'request_approved',
    );
    expect(mail?.subject).toBe('Your request was approved: 120 credits (protected pool)');
    expect(mail?.text_body).toContain(
      '“Alpha District” approved your request for 120 credits (protected pool).',
    );
    expect(linkIn(mail?.text_body ?? '').href).toBe(
      `${TEST_PUBLIC_URL}/${orgs.schoolA}/requests?direction=outgoing&request=${asked.id}`,
    );
  });

  it('approves part of it; more than asked is 422; once decided, 409', async () => {
    const asked = await api.asked('schoolAdmin', orgs.schoolA, credits(50));
    const above = await api.approve('owner', asked.id, { amount: 51 });
    expect(above.statusCode).toBe(422);
    expect(above.json()).toMatchObject({ error: 'business_rule', message: REQUEST_MSG.amountAboveAsked(50) });
    const school = await poolsOf(t, orgs.schoolA);
    const partly = await api.approve('owner', asked.id, { amount: 20 });
    expect(partly.statusCode, partly.body).toBe(200);
    expect(partly.json()).toMatchObject({ status: 'approved', amount: 50, approvedAmount: 20 });
    expect((await poolsOf(t, orgs.schoolA)).shared).toBe(school.shared + 20);
    const [mail] = (await mailsTo(t.db, users.schoolAdmin.email)).filter(
      (m) => m.subject === 'Your request was approved: 20 credits (shared pool)',
    );
    expect(mail?.text_body).toContain(
      'approved 20 credits (shared pool) of your request for 50 credits (shared pool).',
    );

    for (const again of [
      () => api.approve('owner', asked.id),
      () => api.decline('owner', asked.id, 'No'),
      () => api.cancel('schoolAdmin', asked.id),
    ]) {
      const answer = await again();
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toEqual({ error: 'conflict', message: REQUEST_MSG.notOpen });
    }
    expect((await poolsOf(t, orgs.schoolA)).shared).toBe(school.shared + 20);
  });

  it('the spec’s refusal leaves the request open and moves nothing', async () => {
    const asked = await api.asked('schoolAdmin', orgs.schoolA, credits(100_000));
    const before = { district: await poolsOf(t, orgs.alpha), school: await poolsOf(t, orgs.schoolA) };
    const answer = await api.approve('owner', asked.id);
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toMatchObject({
      error: 'insufficient_credits',
      message: MSG.notEnoughCredits('shared'),
    });
    expect(await poolsOf(t, orgs.alpha)).toEqual(before.district);
    expect(await poolsOf(t, orgs.schoolA)).toEqual(before.school);
    const [still] = await rows<{ status: string }>(
      t.db,
      sql`select status from organization_requests where id = ${asked.id}`,
    );
    expect(still?.status).toBe('open');
    expect(await auditOf(orgs.schoolA, 'request_approved')).not.toContainEqual(
      expect.objectContaining({ target_id: asked.id }),
    );
  });

  it('seats: hands seats of the type down; a type the organization above lacks is “Source … missing”', async () => {
    const school = await schoolWithAdmin(t, orgs.alpha, 'Seat School');
    const districtSeats = await seatsOf(t, orgs.alpha, 'chorus');
    const asked = await api.asked(school.admin.id, school.id, {
      kind: 'seats',
      amount: 4,
      licenseType: 'chorus',
    });
    const answer = await api.approve('admin', asked.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ status: 'approved', approvedAmount: 4 });
    expect(await seatsOf(t, school.id, 'chorus')).toBe(4);
    expect(await seatsOf(t, orgs.alpha, 'chorus')).toBe((districtSeats ?? 0) - 4);
    const seatAudit = await rows<{ organization_id: string }>(
      t.db,
      sql`select organization_id from audit_events where action = 'licence_seats_moved' and organization_id = ${school.id}`,
    );
    expect(seatAudit).toHaveLength(1);
    const [mail] = (await mailsTo(t.db, school.admin.email)).filter((m) => m.kind === 'request_approved');
    expect(mail?.subject).toBe('Your request was approved: 4 Chorus seats');

    const missing = await api.asked(school.admin.id, school.id, {
      kind: 'seats',
      amount: 1,
      licenseType: 'tle_teacher',
    });
    const refused = await api.approve('admin', missing.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ message: MSG.sourceMissing('TLE Teacher') });
    expect(await seatsOf(t, school.id, 'tle_teacher')).toBeNull();
    const tooMany = await api.asked(school.admin.id, school.id, {
      kind: 'seats',
      amount: 10_000,
      licenseType: 'chorus',
    });
    const short = await api.approve('admin', tooMany.id);
    expect(short.statusCode).toBe(422);
    expect(short.json()).toMatchObject({ message: MSG.notEnoughLicenses('Chorus') });
    expect(await seatsOf(t, school.id, 'chorus')).toBe(4);
  });

  it('the asking side may not approve or decline its own request: 403; outsiders: 404', async () => {
    const asked = await api.asked('schoolAdmin', orgs.schoolA, credits(7));
    expect((await api.approve('schoolAdmin', asked.id)).statusCode).toBe(403);
    expect((await api.decline('schoolAdmin', asked.id, 'Never mind')).statusCode).toBe(403);
    for (const who of ['teacher', 'betaOwner'] as const) {
      expect((await api.approve(who, asked.id)).statusCode, who).toBe(404);
      expect((await api.decline(who, asked.id, 'No')).statusCode, who).toBe(404);
      expect((await api.cancel(who, asked.id)).statusCode, who).toBe(404);
    }
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect((await api.approve('owner', id)).statusCode, id).toBe(404);
    }
  });

  it('a school’s admin decides what the organizations directly below it ask', async () => {
    const funding = await api.asked('schoolAdmin', orgs.schoolA, credits(5));
    expect((await api.approve('owner', funding.id)).statusCode).toBe(200);
    const asked = await api.asked('schoolAdmin', orgs.annex, credits(1));
    expect(asked.parentOrganization.id).toBe(orgs.schoolA);
    const school = await poolsOf(t, orgs.schoolA);
    const answer = await api.approve('schoolAdmin', asked.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await poolsOf(t, orgs.schoolA)).toEqual({ ...school, shared: school.shared - 1 });
    expect((await poolsOf(t, orgs.annex)).shared).toBe(1);
  });
});

describe('declining and cancelling', () => {
  it('declines with a reason, mailed to the person who asked', async () => {
    const asked = await api.asked('schoolAdmin', orgs.schoolA, {
      kind: 'seats',
      amount: 2,
      licenseType: 'chorus',
    });
    expect((await api.decline('owner', asked.id, '   ')).statusCode).toBe(400);
    const answer = await api.decline('owner', asked.id, 'Renewal is in May.');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      status: 'declined',
      reason: 'Renewal is in May.',
      approvedAmount: null,
      decidedBy: { id: users.owner.id },
    });
    const [entry] = (await auditOf(orgs.schoolA, 'request_declined')).filter((e) => e.target_id === asked.id);
    expect(entry).toMatchObject({
      target_label: '2 Chorus seats',
      after: { status: 'declined', reason: 'Renewal is in May.' },
    });
    const [mail] = (await mailsTo(t.db, users.schoolAdmin.email)).filter(
      (m) => m.kind === 'request_declined',
    );
    expect(mail?.subject).toBe('Your request for 2 Chorus seats was declined');
    expect(mail?.text_body).toContain('Their reason: “Renewal is in May.”');
  });

  it('the asking side cancels while open; the audit log says so; nothing is mailed', async () => {
    const asked = await api.asked('schoolAdmin', orgs.schoolA, credits(9));
    const mailsBefore = (await mailsTo(t.db, users.owner.email)).length;
    const answer = await api.cancel('schoolAdmin', asked.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ status: 'cancelled', decidedBy: { id: users.schoolAdmin.id } });
    expect(await auditOf(orgs.schoolA, 'request_cancelled')).toContainEqual(
      expect.objectContaining({ target_id: asked.id }),
    );
    expect((await mailsTo(t.db, users.owner.email)).length).toBe(mailsBefore);
    expect((await api.approve('owner', asked.id)).statusCode).toBe(409);
  });

  it('deleting the asking organization cancels its open requests', async () => {
    const school = await schoolWithAdmin(t, orgs.alpha, 'Closing School');
    const asked = await api.asked(school.admin.id, school.id, credits(4));
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/organization/${school.id}/delete`,
      headers: bearer(await sessionFor(t.db, users.owner.id)),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const [row] = await rows<{ status: string }>(
      t.db,
      sql`select status from organization_requests where id = ${asked.id}`,
    );
    expect(row?.status).toBe('cancelled');
    expect((await api.approve('owner', asked.id)).statusCode).toBe(409);
  });
});

describe('a day’s requests', () => {
  it(`the 11th request in 24 hours is 429, cancelled ones counted`, async () => {
    const school = await schoolWithAdmin(t, orgs.alpha, 'Busy School');
    for (let i = 1; i <= 10; i++) {
      const asked = await api.asked(school.admin.id, school.id, credits(i));
      if (i % 2 === 0) await api.cancel(school.admin.id, asked.id);
    }
    const eleventh = await api.ask(school.admin.id, school.id, credits(11));
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toEqual({ error: 'rate_limited', message: REQUEST_MSG.tooMany });
    // A day later there is room again.
    await t.db.execute(sql`update organization_requests set created_at = created_at - interval '25 hours'
      where organization_id = ${school.id}`);
    expect((await api.ask(school.admin.id, school.id, credits(12))).statusCode).toBe(201);
  });
});

describe('what is above', () => {
  it('the parent, who decides there, its free seats, and the open requests asked of the organization itself', async () => {
    const school = await schoolWithAdmin(t, orgs.alpha, 'Above School');
    const answer = await api.get(school.admin.id, `/api/organization/${school.id}/above`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      parent: { id: orgs.alpha, name: 'Alpha District' },
      managers: [
        { name: users.owner.name, email: users.owner.email, role: 'organization_owner' },
        { name: users.admin.name, email: users.admin.email, role: 'organization_admin' },
      ],
      freeSeats: { chorus: true, tle_creator: false, tle_teacher: false, chorus_optoma: false },
      openRequests: 0,
    });
    const root = await api.get('owner', `/api/organization/${orgs.alpha}/above`);
    expect(root.json()).toMatchObject({ parent: null, managers: [], freeSeats: { chorus: false } });
    expect(root.json<{ openRequests: number }>().openRequests).toBeGreaterThan(0);
    const [open] = await rows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from organization_requests where parent_organization_id = ${orgs.alpha} and status = 'open'`,
    );
    expect(root.json<{ openRequests: number }>().openRequests).toBe(Number(open?.n));
  });

  it('an organization run only from above: the managers of the nearest organization above that has some', async () => {
    // Alpha School B has no owner or admin of its own: its Annex-like child would ask the district's.
    const leaf = await schoolWithAdmin(t, orgs.schoolB, 'Under B');
    const answer = await api.get(leaf.admin.id, `/api/organization/${leaf.id}/above`);
    expect(answer.json()).toMatchObject({
      parent: { id: orgs.schoolB },
      managers: [{ email: users.owner.email }, { email: users.admin.email }],
    });
    await giveLicense(t.db, orgs.schoolB, 'tle_creator', 1);
    expect((await api.get(leaf.admin.id, `/api/organization/${leaf.id}/above`)).json()).toMatchObject({
      freeSeats: { tle_creator: true, chorus: false },
    });
  });

  it('outsiders and teachers: 404', async () => {
    for (const who of ['teacher', 'betaOwner'] as const) {
      expect((await api.get(who, `/api/organization/${orgs.schoolA}/above`)).statusCode, who).toBe(404);
    }
  });
});
