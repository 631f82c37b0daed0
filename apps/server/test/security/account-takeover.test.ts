import { APP_MSG, MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { codeIn, lastMailTo, linkIn, mailsTo } from '../support/outbox';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD, sessionFor } from '../support/world';

/**
 * The account takeovers of the security review (rows 1–3 and 7), as an attacker inside another tenant
 * would try them, and the two flows that close them (CONTRACT §3): existing accounts are invited, never
 * attached; email changes apply only with the code mailed to the new address.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ipCounter = 0;
/** Every call from its own address: the sign-in and code limits per IP stay out of the way. */
const call = (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    remoteAddress: `198.51.100.${++ipCounter % 250}`,
    ...(payload ? { payload } : {}),
  });
const signIn = (email: string, password: string) =>
  call('POST', '/api/auth/login', null, { email, password });
const tokenOf = (who: keyof TestApp['world']['users']) => sessionFor(t.db, t.world.users[who].id);
const emailOf = async (userId: string) =>
  (await rows<{ email: string }>(t.db, sql`select email from users where id = ${userId}`))[0]?.email;

/** A verified account with a password, member of `organizationId` with `role`. */
async function person(email: string, organizationId: string, role: string, name = 'Some Body') {
  const [user] = await rows<{ id: string }>(
    t.db,
    sql`insert into users (email, name, password_hash, email_verified_at)
        select ${email}, ${name}, password_hash, now() from users where id = ${t.world.users.owner.id}
        returning id`,
  );
  if (!user) throw new Error('insert failed');
  await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
    values (${user.id}, ${organizationId}, ${role})`);
  return { id: user.id, email, token: await sessionFor(t.db, user.id) };
}

async function confirmLink(email: string) {
  const mail = await lastMailTo(t.db, email);
  expect(mail.kind).toBe('email_change');
  const [, , , userId, token] = linkIn(mail.text_body).pathname.split('/');
  return { userId: userId as string, token: token as string, code: codeIn(mail.text_body) };
}

describe('row 1: renaming one’s own email to a future owner’s address takes over nothing', () => {
  it('the address stays the attacker’s until confirmed there; the organization created for it gets a new account', async () => {
    const attacker = await person('mallory@beta.test', t.world.orgs.beta, 'organization_admin', 'M');
    const renamed = await call('POST', `/api/user/${attacker.id}/update`, attacker.token, {
      name: 'M',
      email: 'ceo@newco.test',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ email: 'mallory@beta.test', pendingEmail: 'ceo@newco.test' });
    expect(await emailOf(attacker.id)).toBe('mallory@beta.test');
    // The code went to the address the attacker does not read; the attacker's own inbox got a notice.
    expect((await lastMailTo(t.db, 'ceo@newco.test')).kind).toBe('email_change');
    expect((await lastMailTo(t.db, 'mallory@beta.test')).kind).toBe('email_change_notice');

    const system = await tokenOf('systemAdmin');
    const created = await call('POST', '/api/organization/create', system, {
      name: 'NewCo',
      type: 'company',
      phoneNumber: '+1 555 000 7777',
      adminName: 'Chief Executive',
      adminEmail: 'ceo@newco.test',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ adminName: 'Chief Executive', adminEmail: 'ceo@newco.test' });
    expect((await lastMailTo(t.db, 'ceo@newco.test')).kind).toBe('invitation');
    expect((await signIn('ceo@newco.test', PASSWORD)).statusCode).toBe(401);

    // Without the link and the code of that mail, the change cannot be confirmed.
    const guess = await call('POST', '/api/auth/email/confirm', attacker.token, {
      userId: attacker.id,
      token: 'a-made-up-token',
      code: '000000',
    });
    expect(guess.statusCode).toBe(400);
    expect(await emailOf(attacker.id)).toBe('mallory@beta.test');
  });
});

describe('row 1, second form: after leaving its own tenant, the attacker is not attached elsewhere', () => {
  it('a user created in another tenant for the address the attacker asked for gets an account of its own', async () => {
    const attacker = await person('trudy@beta.test', t.world.orgs.beta, 'organization_admin', 'Trudy');
    await call('POST', `/api/user/${attacker.id}/update`, attacker.token, {
      name: 'Trudy',
      email: 'new.teacher@alpha.test',
    });
    await t.db.execute(sql`delete from memberships where user_id = ${attacker.id}`);
    const owner = await tokenOf('owner');
    const created = await call('POST', '/api/user/create', owner, {
      email: 'new.teacher@alpha.test',
      name: 'New Teacher',
      organizationId: t.world.orgs.schoolA,
      role: 'organization_admin',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().id).not.toBe(attacker.id);
    expect(created.json()).toMatchObject({ name: 'New Teacher', email: 'new.teacher@alpha.test' });
    expect((await signIn('new.teacher@alpha.test', PASSWORD)).statusCode).toBe(401);
    expect(await emailOf(attacker.id)).toBe('trudy@beta.test');
  });
});

describe('row 2: a peer cannot move another account’s email to their own inbox', () => {
  it('an admin may not change a same-rank admin’s email; a reset then still goes to the peer', async () => {
    const attacker = await person('eve@alpha.test', t.world.orgs.alpha, 'organization_admin');
    const response = await call('POST', `/api/user/${t.world.users.admin.id}/update`, attacker.token, {
      name: t.world.users.admin.name,
      email: 'attacker@evil.test',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'forbidden', message: APP_MSG.emailChangeNotAllowed });
    expect(await emailOf(t.world.users.admin.id)).toBe('admin@alpha.test');
    expect(await mailsTo(t.db, 'attacker@evil.test')).toEqual([]);

    await call('POST', '/api/auth/password/forgot', null, { email: 'attacker@evil.test' });
    await t.app.background.settle();
    expect(await mailsTo(t.db, 'attacker@evil.test')).toEqual([]);
    expect((await signIn('admin@alpha.test', 'a-password-of-eve')).statusCode).toBe(401);
  });

  it('a new spelling of the peer’s own address is no change of address, and applies at once', async () => {
    const attacker = await person('eve2@alpha.test', t.world.orgs.alpha, 'organization_admin');
    // Same rank: the profile may be edited (CONTRACT §2: "its own rank and lower"), the address not.
    const rename = await call('POST', `/api/user/${t.world.users.admin.id}/update`, attacker.token, {
      name: 'Ada Admin',
      email: 'ADMIN@alpha.test',
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json()).toMatchObject({ email: 'ADMIN@alpha.test', pendingEmail: null });
    await t.db.execute(sql`update users set email = 'admin@alpha.test' where id = ${t.world.users.admin.id}`);
  });
});

describe('row 3: creating a sub-organization for another tenant’s owner attaches nobody', () => {
  it('the owner of the other tenant is invited: the creator sees only what it typed, and no membership exists', async () => {
    const owner = await tokenOf('owner');
    for (const [email, typed] of [
      ['owner@beta.test', 'Whoever'],
      ['sys@allot.test', 'Some System'],
    ] as const) {
      const created = await call('POST', '/api/organization/create', owner, {
        name: `Trap for ${email}`,
        type: 'school',
        phoneNumber: '+1 555 000 8888',
        parentOrganizationId: t.world.orgs.alpha,
        adminName: typed,
        adminEmail: email,
      });
      expect(created.statusCode).toBe(201);
      const organization = created.json();
      expect(organization).toMatchObject({ adminName: typed, adminEmail: email });
      expect(JSON.stringify(organization)).not.toContain('Bo Beta');
      expect(JSON.stringify(organization)).not.toContain('Sam System');
      const memberships = await rows(
        t.db,
        sql`select 1 from memberships where organization_id = ${organization.id}`,
      );
      expect(memberships).toEqual([]);
      expect((await lastMailTo(t.db, email)).kind).toBe('membership_invitation');

      const members = await call('GET', `/api/organization/${organization.id}/users`, owner);
      expect(members.json().data).toEqual([
        expect.objectContaining({
          name: typed,
          email,
          role: 'organization_owner',
          status: 'pending',
          credits: 0,
        }),
      ]);
    }
    const search = await call('GET', '/api/user/search?search=beta&limit=100', owner);
    expect(search.json().data).toEqual([]);
    const bySystemName = await call('GET', '/api/user/search?search=system&limit=100', owner);
    expect(bySystemName.json().data).toEqual([]);
  });

  it('the invited owner joins with the mailed code, and only then is owner', async () => {
    const owner = await tokenOf('owner');
    const created = await call('POST', '/api/organization/create', owner, {
      name: 'Joined School',
      type: 'school',
      phoneNumber: '+1 555 000 9999',
      parentOrganizationId: t.world.orgs.alpha,
      adminName: 'Typed',
      adminEmail: 'ADMIN@school-a.test',
    });
    const organizationId = created.json().id as string;
    const mail = await lastMailTo(t.db, 'admin@school-a.test');
    const link = linkIn(mail.text_body);
    expect(link.pathname).toBe('/invitation');
    expect(link.searchParams.get('organization')).toBe(organizationId);
    const schoolAdmin = await tokenOf('schoolAdmin');
    expect((await call('GET', `/api/organization/${organizationId}`, schoolAdmin)).statusCode).toBe(404);

    const wrong = await call('POST', '/api/auth/invitation/accept', null, {
      email: 'admin@school-a.test',
      organizationId,
      code: codeIn(mail.text_body) === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_code', message: APP_MSG.invitationNotAccepted });

    const accepted = await call('POST', '/api/auth/invitation/accept', null, {
      email: link.searchParams.get('email'),
      organizationId: organizationId.toUpperCase(),
      code: codeIn(mail.text_body),
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ success: true, organizationId });
    const read = await call(
      'GET',
      `/api/organization/${organizationId}?permissionsAndRole=true`,
      schoolAdmin,
    );
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      adminName: 'Sid School',
      adminEmail: 'admin@school-a.test',
      permissionsAndRole: { role: { name: 'organization_owner' } },
    });
    // The code works once.
    const again = await call('POST', '/api/auth/invitation/accept', null, {
      email: 'admin@school-a.test',
      organizationId,
      code: codeIn(mail.text_body),
    });
    expect(again.statusCode).toBe(400);
  });

  it('a new code works beside the old one; a cancelled invitation cannot be accepted with either and frees its seat', async () => {
    const owner = await tokenOf('owner');
    const invite = await call('POST', '/api/user/create', owner, {
      email: 'owner@beta.test',
      name: 'Typed Beta',
      organizationId: t.world.orgs.alpha,
      role: 'user',
    });
    expect(invite.statusCode).toBe(201);
    expect(invite.json()).toMatchObject({ name: 'Typed Beta', status: 'pending', credits: 0 });
    const seats = async () =>
      (await call('GET', `/api/organization/${t.world.orgs.alpha}?licenses=true`, owner)).json().licenses[0]
        .usedSeats as number;
    const held = await seats();
    // Role and seat changes treat the invited person like any other: nothing tells it had an account.
    const id = invite.json().id as string;
    const role = await call('POST', `/api/user/${id}/update/role`, owner, {
      role: 'organization_admin',
      organizationId: t.world.orgs.alpha,
    });
    expect(role.json()).toEqual([
      { userId: id, organizationId: t.world.orgs.alpha, roleName: 'organization_admin' },
    ]);
    const licences = await call('POST', '/api/user/update/licenses', owner, {
      userIds: [id],
      licenseId: t.world.alphaLicenseId,
      organizationId: t.world.orgs.alpha,
    });
    expect(licences.json()).toEqual([
      expect.objectContaining({ id, role: 'organization_admin', status: 'pending', name: 'Typed Beta' }),
    ]);
    const first = codeIn((await lastMailTo(t.db, 'owner@beta.test')).text_body);
    await call('POST', '/api/auth/invitation/resend', null, {
      email: 'owner@beta.test',
      organizationId: t.world.orgs.alpha,
    });
    await t.app.background.settle();
    const second = codeIn((await lastMailTo(t.db, 'owner@beta.test')).text_body);
    const body = { email: 'owner@beta.test', organizationId: t.world.orgs.alpha };
    const cancelled = await call('POST', '/api/user/remove', owner, {
      organizationId: t.world.orgs.alpha,
      userIds: [invite.json().id],
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toEqual({ removed: [invite.json().id], creditsReturned: 0 });
    expect(await seats()).toBe(held - 1);
    // Cancelled, the invitation takes every code mailed for it along: the first one too, which a resend
    // leaves alive until it expires.
    for (const code of [first, second]) {
      expect((await call('POST', '/api/auth/invitation/accept', null, { ...body, code })).statusCode).toBe(
        400,
      );
    }
  });
});

describe('row 7: a bulk preview tells nothing about accounts elsewhere', () => {
  it('answers the same for an address with an account in another tenant as for a new one', async () => {
    const admin = await tokenOf('schoolAdmin');
    const preview = async (email: string) =>
      (
        await call('POST', '/api/user/bulk/preview', admin, {
          organizationId: t.world.orgs.schoolA,
          users: [{ email, name: 'Someone', role: 'user' }],
        })
      ).json();
    const existing = await preview('owner@beta.test');
    const fresh = await preview('nobody-yet@beta.test');
    expect(JSON.stringify(existing).replace('owner@beta.test', 'X')).toBe(
      JSON.stringify(fresh).replace('nobody-yet@beta.test', 'X'),
    );
  });
});

describe('email changes (CONTRACT §3)', () => {
  it('apply with the code mailed to the new address; every other session ends, the caller’s stays', async () => {
    const teacher = await person('tom@alpha.test', t.world.orgs.schoolA, 'user', 'Tom Teacher');
    const otherSession = await sessionFor(t.db, teacher.id);
    const schoolAdmin = await tokenOf('schoolAdmin');
    const asked = await call('POST', `/api/user/${teacher.id}/update`, schoolAdmin, {
      name: 'Tom Teacher',
      email: 'Tom.New@alpha.test',
    });
    expect(asked.json()).toMatchObject({ email: 'tom@alpha.test', pendingEmail: 'Tom.New@alpha.test' });
    const list = await call('GET', `/api/organization/${t.world.orgs.schoolA}/users?search=tom`, schoolAdmin);
    expect(list.json().data[0]).toMatchObject({
      email: 'tom@alpha.test',
      pendingEmail: 'Tom.New@alpha.test',
    });
    const notice = await lastMailTo(t.db, 'tom@alpha.test');
    expect(notice.kind).toBe('email_change_notice');
    expect(notice.text_body).toContain('Sid School (admin@school-a.test) asked to change');

    const { userId, token, code } = await confirmLink('Tom.New@alpha.test');
    expect(userId).toBe(teacher.id);
    const confirmed = await call('POST', '/api/auth/email/confirm', teacher.token, { userId, token, code });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ success: true, email: 'Tom.New@alpha.test' });
    expect(await emailOf(teacher.id)).toBe('Tom.New@alpha.test');
    expect((await call('GET', '/api/organization', otherSession)).statusCode).toBe(401);
    expect((await call('GET', '/api/organization', teacher.token)).statusCode).toBe(200);
    const after = await call(
      'GET',
      `/api/organization/${t.world.orgs.schoolA}/users?search=tom`,
      schoolAdmin,
    );
    expect(after.json().data[0]).toMatchObject({ email: 'Tom.New@alpha.test', pendingEmail: null });
    // The code works once.
    expect((await call('POST', '/api/auth/email/confirm', null, { userId, token, code })).statusCode).toBe(
      400,
    );
  });

  it('an owner may change an admin’s email; an admin that of an owner or a peer never', async () => {
    const admin = await person('ann.admin@alpha.test', t.world.orgs.alpha, 'organization_admin');
    const owner = await tokenOf('owner');
    const byOwner = await call('POST', `/api/user/${admin.id}/update`, owner, {
      name: 'Ann',
      email: 'ann.new@alpha.test',
    });
    expect(byOwner.statusCode).toBe(200);
    const byAdmin = await call('POST', `/api/user/${t.world.users.owner.id}/update`, admin.token, {
      name: 'Olga Owner',
      email: 'olga@evil.test',
    });
    expect(byAdmin.statusCode).toBe(403);
  });

  it('is refused when the new address got an account meanwhile (409), and nothing changes', async () => {
    const teacher = await person('una@alpha.test', t.world.orgs.schoolA, 'user');
    await call('POST', `/api/user/${teacher.id}/update`, teacher.token, {
      name: 'Una',
      email: 'una@new.test',
    });
    const { userId, token, code } = await confirmLink('una@new.test');
    await person('UNA@new.test', t.world.orgs.beta, 'user');
    const refused = await call('POST', '/api/auth/email/confirm', null, { userId, token, code });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'email_taken', message: MSG.emailTaken });
    expect(await emailOf(teacher.id)).toBe('una@alpha.test');
  });
});

describe('a teacher in two districts keeps her account whatever an admin of either types', () => {
  it('neither district’s admin may rename her or move her email; both may only invite her', async () => {
    const teacher = await person('tess@alpha.test', t.world.orgs.schoolA, 'user', 'Tess Two');
    await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
      values (${teacher.id}, ${t.world.orgs.beta}, 'user')`);
    for (const who of ['schoolAdmin', 'betaOwner'] as const) {
      const token = await tokenOf(who);
      for (const body of [
        { name: 'Tess Two', email: `${who}@evil.test` },
        { name: 'Not Tess', email: 'tess@alpha.test' },
      ]) {
        const response = await call('POST', `/api/user/${teacher.id}/update`, token, body);
        expect(response.statusCode, `${who} ${body.email}`).toBe(403);
      }
    }
    const betaOwner = await tokenOf('betaOwner');
    const again = await call('POST', '/api/user/create', betaOwner, {
      email: 'TESS@alpha.test',
      name: 'Other Name',
      organizationId: t.world.orgs.beta,
      role: 'organization_admin',
    });
    expect(again.statusCode).toBe(409);
    const [account] = await rows<{ name: string; email: string }>(
      t.db,
      sql`select name, email from users where id = ${teacher.id}`,
    );
    expect(account).toEqual({ name: 'Tess Two', email: 'tess@alpha.test' });
  });
});
