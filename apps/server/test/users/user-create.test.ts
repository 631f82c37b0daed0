import { APP_MSG, MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { signedInCalls } from '../support/calls';
import { codeIn, lastMailTo, mailsTo } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';
import { giveLicense } from '../support/world';

let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['owner', 'admin', 'schoolAdmin', 'systemAdmin', 'betaOwner']);
});
afterAll(() => t.close());

const seatsOf = async (organizationId: string) =>
  (await api.get('owner', `/api/organization/${organizationId}?licenses=true`)).json<{
    usersCount: number;
    licenses: { id: string; licenseType: string; maxUsers: number; usedSeats: number }[];
  }>();

describe('POST /api/user/create', () => {
  it('adds a teacher with a seat of the organization’s licence and queues the invitation', async () => {
    const before = await seatsOf(t.world.orgs.alpha);
    const response = await api.post('admin', '/api/user/create', {
      email: 'Grace.Hopper@alpha.test',
      name: 'Grace Hopper',
      organizationId: t.world.orgs.alpha,
      role: 'user',
    });
    expect(response.statusCode).toBe(201);
    const chorus = before.licenses[0];
    expect(response.json()).toMatchObject({
      name: 'Grace Hopper',
      email: 'Grace.Hopper@alpha.test',
      locale: 'en-us',
      role: 'user',
      credits: 0,
      licence: { id: chorus?.id, licenseType: 'chorus' },
    });
    const after = await seatsOf(t.world.orgs.alpha);
    expect(after.usersCount).toBe(before.usersCount + 1);
    expect(after.licenses[0]?.usedSeats).toBe((chorus?.usedSeats ?? 0) + 1);

    const invitation = await lastMailTo(t.db, 'grace.hopper@alpha.test');
    expect(invitation.kind).toBe('invitation');
    expect(invitation.text_body).toContain('/register/verify?email=Grace.Hopper%40alpha.test');
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: {
        email: 'grace.hopper@alpha.test',
        code: codeIn(invitation.text_body),
        password: 'a-brand-new-password',
      },
    });
    expect(verified.json()).toEqual({ success: true });
  });

  it('refuses a member or an invited person of the organization, whatever its case, with the spec’s 409 text', async () => {
    for (const email of ['ADMIN@alpha.test', 'owner@alpha.test']) {
      const response = await api.post('owner', '/api/user/create', {
        email,
        name: 'Someone',
        organizationId: t.world.orgs.alpha,
        role: 'user',
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: 'email_taken', message: MSG.emailTaken });
    }
    const invited = await api.post('owner', '/api/user/create', {
      email: 'owner@beta.test',
      name: 'Someone',
      organizationId: t.world.orgs.alpha,
      role: 'user',
    });
    expect(invited.statusCode).toBe(201);
    const again = await api.post('owner', '/api/user/create', {
      email: 'OWNER@beta.test',
      name: 'Someone',
      organizationId: t.world.orgs.alpha,
      role: 'user',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'email_taken', message: MSG.emailTaken });
  });

  it('validates with the spec’s messages', async () => {
    const response = await api.post('owner', '/api/user/create', {
      email: 'not-an-email',
      name: ' ',
      organizationId: t.world.orgs.alpha,
      role: 'system_admin',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.fields).toMatchObject({ email: MSG.invalidEmail, name: MSG.required });
  });

  it('answers 402 when the chosen licence has no free seat, and writes nothing', async () => {
    const school = await giveLicense(t.db, t.world.orgs.schoolB, 'tle_teacher', 1);
    const add = (email: string) =>
      api.post('owner', '/api/user/create', {
        email,
        name: 'Seat Taker',
        organizationId: t.world.orgs.schoolB,
        role: 'user',
        licenseId: school?.id,
      });
    expect((await add('first-seat@alpha.test')).statusCode).toBe(201);
    const refused = await add('second-seat@alpha.test');
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({
      error: 'seat_limit',
      message: MSG.notEnoughLicenses('TLE Teacher'),
    });
    expect(await rows(t.db, sql`select 1 from users where email = 'second-seat@alpha.test'`)).toEqual([]);
    expect(await mailsTo(t.db, 'second-seat@alpha.test')).toEqual([]);
  });

  it('adds without a seat where the organization has no licence', async () => {
    const response = await api.post('schoolAdmin', '/api/user/create', {
      email: 'no-licence@school-a.test',
      name: 'No Licence',
      organizationId: t.world.orgs.schoolA,
      role: 'organization_admin',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().licence).toBeNull();
  });

  it('refuses a licence of another organization', async () => {
    const [alphaLicence] = (await seatsOf(t.world.orgs.alpha)).licenses;
    const response = await api.post('owner', '/api/user/create', {
      email: 'wrong-licence@alpha.test',
      name: 'Wrong Licence',
      organizationId: t.world.orgs.schoolA,
      role: 'user',
      licenseId: alphaLicence?.id,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'not_found',
      message: APP_MSG.unknownLicense,
      details: { fields: { licenseId: APP_MSG.unknownLicense } },
    });
    const unknown = await api.post('owner', '/api/user/create', {
      email: 'unknown-licence@alpha.test',
      name: 'Unknown Licence',
      organizationId: t.world.orgs.schoolA,
      role: 'user',
      licenseId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers an unknown type or role with its own message, not "Field is required."', async () => {
    const role = await api.post('owner', '/api/user/create', {
      email: 'system@alpha.test',
      name: 'System Role',
      organizationId: t.world.orgs.schoolA,
      role: 'system_admin',
    });
    expect(role.statusCode).toBe(400);
    expect(role.json().details.fields).toEqual({ role: 'Invalid value.' });
    const missing = await api.post('owner', '/api/user/create', {
      email: 'no-role@alpha.test',
      name: 'No Role',
      organizationId: t.world.orgs.schoolA,
    });
    expect(missing.json().details.fields).toEqual({ role: 'Field is required.' });
    const castle = await api.post('owner', '/api/organization/create', {
      name: 'Castle',
      phoneNumber: '+1 555 000 0000',
      type: 'castle',
      parentOrganizationId: t.world.orgs.alpha,
    });
    expect(castle.statusCode).toBe(400);
    expect(castle.json().details.fields).toEqual({ type: 'Invalid value.' });
  });

  it('lets only an owner add an owner, and the current owner becomes an admin', async () => {
    const byAdmin = await api.post('admin', '/api/user/create', {
      email: 'would-be-owner@alpha.test',
      name: 'Would Be',
      organizationId: t.world.orgs.schoolA,
      role: 'organization_owner',
    });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toBe(APP_MSG.onlyOwnerMakesOwner);

    const first = await api.post('owner', '/api/user/create', {
      email: 'annex-owner@alpha.test',
      name: 'Annex Owner',
      organizationId: t.world.orgs.annex,
      role: 'organization_owner',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json().role).toBe('organization_owner');
    const second = await api.post('owner', '/api/user/create', {
      email: 'annex-owner-2@alpha.test',
      name: 'Annex Owner Two',
      organizationId: t.world.orgs.annex,
      role: 'organization_owner',
    });
    expect(second.statusCode).toBe(201);
    const roles = await rows<{ email: string; role: string }>(
      t.db,
      sql`select u.email, m.role from memberships m join users u on u.id = m.user_id
          where m.organization_id = ${t.world.orgs.annex} order by u.email`,
    );
    expect(roles).toEqual([
      { email: 'annex-owner-2@alpha.test', role: 'organization_owner' },
      { email: 'annex-owner@alpha.test', role: 'organization_admin' },
    ]);
  });

  it('is 404 outside the caller’s subtrees', async () => {
    const response = await api.post('betaOwner', '/api/user/create', {
      email: 'intruder@beta.test',
      name: 'Intruder',
      organizationId: t.world.orgs.alpha,
      role: 'user',
    });
    expect(response.statusCode).toBe(404);
  });

  it('lets a removed person join again with the same account', async () => {
    const created = await api.post('owner', '/api/user/create', {
      email: 'comeback@alpha.test',
      name: 'Come Back',
      organizationId: t.world.orgs.schoolA,
      role: 'user',
    });
    const id = created.json().id;
    const removed = await api.post('owner', '/api/user/remove', {
      organizationId: t.world.orgs.schoolA,
      userIds: [id],
    });
    expect(removed.statusCode).toBe(200);
    const again = await api.post('owner', '/api/user/create', {
      email: 'comeback@alpha.test',
      name: 'Come Back',
      organizationId: t.world.orgs.annex,
      role: 'user',
    });
    // An account that exists is invited, never attached (CONTRACT §3): it joins with the mailed code.
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ status: 'pending' });
    // Named by the invitation (CONTRACT §3), which offers the same account.
    const [invitation] = await rows<{ user_id: string }>(
      t.db,
      sql`select user_id from membership_invitations where id = ${again.json().id}`,
    );
    expect(invitation?.user_id).toBe(id);
    expect((await lastMailTo(t.db, 'comeback@alpha.test')).kind).toBe('membership_invitation');
  });
});
