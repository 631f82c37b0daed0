import { MFA_MSG } from '@allot/domain/mfa';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { insertOrganization } from '../../src/features/organizations/tree';
import { ensureSystemAdmin } from '../../src/features/system-admin/ensure-admin';
import { createTestApp, type TestApp } from '../support/test-app';
import { totpCode } from '../support/totp';
import { twoFactorCalls } from '../support/two-factor';
import { PASSWORD, sessionFor } from '../support/world';

/**
 * Who must have two-factor (CONTRACT §3, decision 015): an organization's owner requires it of the owners and
 * admins of the organization and everything below; REQUIRE_SYSTEM_ADMIN_MFA of system admins; a system admin
 * can turn someone's off.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { call, login, status, enrol, challengeOf, verify, newMember } = twoFactorCalls(() => t);
const setSecurity = (token: string, organizationId: string, requireMfa: boolean, code?: string) =>
  call('POST', `/api/organization/${organizationId}/security`, {
    token,
    body: code === undefined ? { requireMfa } : { requireMfa, code },
  });

type Entry = {
  action: string;
  target: { type: string; id: string; label: string };
  before: unknown;
  after: unknown;
};
async function auditEntries(organizationId: string, action: string): Promise<Entry[]> {
  const token = await sessionFor(t.db, t.world.users.systemAdmin.id);
  const response = await call('GET', `/api/organization/${organizationId}/audit-log?action=${action}`, {
    token,
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: Entry[] }>().data;
}

describe('an organization that requires two-factor', () => {
  let ownerToken = '';
  let ownerCodes: string[] = [];

  it('is set by an owner (or a system admin), not an admin, and not from another tenant', async () => {
    const { orgs, users } = t.world;
    const asAdmin = await setSecurity(await sessionFor(t.db, users.admin.id), orgs.alpha, false);
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json()).toEqual({ error: 'forbidden', message: MFA_MSG.ownerOnly });
    const asOtherTenant = await setSecurity(await sessionFor(t.db, users.betaOwner.id), orgs.alpha, true);
    expect(asOtherTenant.statusCode).toBe(404);
    const asTeacher = await setSecurity(await sessionFor(t.db, users.teacher.id), orgs.schoolA, true);
    expect(asTeacher.statusCode).toBe(404);
  });

  it('needs the owner’s own two-factor, and a code of it in the call, on as off', async () => {
    ownerToken = await sessionFor(t.db, t.world.users.owner.id);
    const refused = await setSecurity(ownerToken, t.world.orgs.alpha, true);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: 'business_rule', message: MFA_MSG.turnOnYoursFirst });
    const offRefused = await setSecurity(ownerToken, t.world.orgs.alpha, false);
    expect(offRefused.statusCode).toBe(422);
    expect(offRefused.json()).toEqual({ error: 'business_rule', message: MFA_MSG.ownNeeded });
    expect(await auditEntries(t.world.orgs.alpha, 'organization_security_updated')).toEqual([]);

    const { secret, recoveryCodes } = await enrol(ownerToken);
    ownerCodes = recoveryCodes;
    // A session alone is not enough: the code proves the person is at the keyboard now.
    const noCode = await setSecurity(ownerToken, t.world.orgs.alpha, true);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toEqual({
      error: 'invalid_input',
      message: MFA_MSG.ownCodeNeeded,
      details: { fields: { code: MFA_MSG.ownCodeNeeded } },
    });
    const wrong = await setSecurity(ownerToken, t.world.orgs.alpha, true, '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'invalid_code', message: MFA_MSG.wrongCode });
    // The code that turned two-factor on was used: it does not work a second time.
    const used = await setSecurity(ownerToken, t.world.orgs.alpha, true, await totpCode(secret));
    expect(used.statusCode).toBe(400);
    expect(used.json().error).toBe('invalid_code');
    expect(
      (await call('GET', `/api/organization/${t.world.orgs.alpha}`, { token: ownerToken })).json().security,
    ).toEqual({ requireMfa: false, requiredAbove: null });
    expect(await auditEntries(t.world.orgs.alpha, 'organization_security_updated')).toEqual([]);
  });

  it('once on: audit-logged, shown on the organization and below, and its unenrolled admins are signed out', async () => {
    const { orgs, users } = t.world;
    const adminSession = await sessionFor(t.db, users.admin.id);
    const schoolAdminSession = await sessionFor(t.db, users.schoolAdmin.id);
    const teacherSession = await sessionFor(t.db, users.teacher.id);
    const betaSession = await sessionFor(t.db, users.betaOwner.id);
    const enrolled = await newMember('enrolled', orgs.schoolB);
    await enrol(enrolled.token);

    const on = await setSecurity(ownerToken, orgs.alpha, true, ownerCodes[0]);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ requireMfa: true, requiredAbove: null });

    const [entry] = await auditEntries(orgs.alpha, 'organization_security_updated');
    expect(entry).toMatchObject({
      target: { type: 'organization', id: orgs.alpha, label: 'Alpha District' },
      before: { requireMfa: false },
      after: { requireMfa: true },
    });
    const read = (id: string) => call('GET', `/api/organization/${id}`, { token: ownerToken });
    expect((await read(orgs.alpha)).json().security).toEqual({ requireMfa: true, requiredAbove: null });
    expect((await read(orgs.annex)).json().security).toEqual({
      requireMfa: false,
      requiredAbove: { id: orgs.alpha, name: 'Alpha District' },
    });

    // Owners and admins here and below without two-factor: signed out. The others keep their sessions.
    expect((await status(adminSession)).statusCode).toBe(401);
    expect((await status(schoolAdminSession)).statusCode).toBe(401);
    expect((await status(ownerToken)).statusCode).toBe(200);
    expect((await status(enrolled.token)).statusCode).toBe(200);
    expect((await status(betaSession)).statusCode).toBe(200);
    // A teacher has no panel role: the rule is not about them (their token is an API test's, not sign-in's).
    expect((await status(teacherSession)).statusCode).toBe(200);
    // One recovery code confirmed the switch.
    expect((await status(ownerToken)).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 9,
      required: true,
    });
  });

  it('walks an unenrolled admin through setting it up at sign-in, then signs them in', async () => {
    const admin = t.world.users.admin;
    const first = await login(admin.email);
    expect(first.statusCode).toBe(403);
    expect(first.json()).toEqual({
      error: 'mfa_setup_required',
      message: MFA_MSG.setupNeeded,
      details: { challenge: expect.any(String) },
    });
    const challenge = first.json<{ details: { challenge: string } }>().details.challenge;
    // The challenge is for setting up, not for signing in.
    expect((await verify(challenge, '123456')).statusCode).toBe(401);

    const early = await call('POST', '/api/auth/mfa/enable', { body: { challenge, code: '123456' } });
    expect(early.statusCode).toBe(422);
    const setup = await call('POST', '/api/auth/mfa/setup', { body: { challenge } });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json<{ secret: string; otpauthUrl: string }>();
    expect(otpauthUrl).toContain(encodeURIComponent(admin.email));
    const wrong = await call('POST', '/api/auth/mfa/enable', { body: { challenge, code: '000000' } });
    expect(wrong.statusCode).toBe(400);

    const enabled = await call('POST', '/api/auth/mfa/enable', {
      body: { challenge, code: await totpCode(secret) },
    });
    expect(enabled.statusCode).toBe(200);
    const body = enabled.json<{ recoveryCodes: string[]; session: { secToken: string } }>();
    expect(body.recoveryCodes).toHaveLength(10);
    expect(body.session).toEqual({
      secToken: expect.any(String),
      userId: admin.id,
      userEmail: admin.email,
      role: 'organization_admin',
    });
    const token = body.session.secToken;
    expect((await call('GET', '/api/organization', { token })).statusCode).toBe(200);
    expect((await status(token)).json()).toEqual({ enabled: true, recoveryCodesLeft: 10, required: true });

    // The challenge is used up; the next sign-in asks for a code.
    expect((await call('POST', '/api/auth/mfa/setup', { body: { challenge } })).statusCode).toBe(401);
    expect((await verify(await challengeOf(admin.email), await totpCode(secret, 1))).statusCode).toBe(200);

    // Required: it cannot be turned off.
    const off = await call('POST', '/api/auth/mfa/disable', {
      token,
      body: { password: PASSWORD, code: body.recoveryCodes[0] },
    });
    expect(off.statusCode).toBe(422);
    expect(off.json()).toEqual({ error: 'business_rule', message: MFA_MSG.requiredCannotTurnOff });
  });

  it('catches roles held in the organization or below it, not roles held above it', async () => {
    const { orgs, users } = t.world;
    const schoolOfBeta = await t.db.transaction((tx) =>
      insertOrganization(tx, {
        name: 'Beta School',
        type: 'school',
        phoneNumber: '5550001111',
        parentId: orgs.beta,
      }),
    );
    await t.db.execute(sql`update organizations set require_mfa = true where id = ${schoolOfBeta}`);
    expect((await login(users.betaOwner.email)).statusCode).toBe(200);
    const betaSchoolAdmin = await newMember('beta-school-admin', schoolOfBeta);
    await challengeOf(betaSchoolAdmin.email, 'mfa_setup_required');
    // A teacher of a requiring school is refused as ever: no panel.
    const teacher = await newMember('beta-teacher', schoolOfBeta, 'user');
    expect((await login(teacher.email)).json().error).toBe('no_panel_access');
  });

  it('turned off by the owner with a code: audit-logged, and sign-in takes the password alone again', async () => {
    const { orgs, users } = t.world;
    // Without a code (a session left open on a shared computer), nothing changes.
    expect((await setSecurity(ownerToken, orgs.alpha, false)).statusCode).toBe(400);
    expect((await setSecurity(ownerToken, orgs.alpha, false, ownerCodes[0])).json().error).toBe(
      'invalid_code',
    );
    expect(
      (await call('GET', `/api/organization/${orgs.alpha}`, { token: ownerToken })).json().security,
    ).toEqual({ requireMfa: true, requiredAbove: null });
    const off = await setSecurity(ownerToken, orgs.alpha, false, ownerCodes[1]);
    expect(off.json()).toEqual({ requireMfa: false, requiredAbove: null });
    const entries = await auditEntries(orgs.alpha, 'organization_security_updated');
    expect(entries[0]).toMatchObject({ before: { requireMfa: true }, after: { requireMfa: false } });
    expect((await login(users.schoolAdmin.email)).statusCode).toBe(200);
    expect((await status(ownerToken)).json().required).toBe(false);
  });
});

describe('REQUIRE_SYSTEM_ADMIN_MFA=true', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ signIn: { requireSystemAdmins: true, encryptionKey: undefined } });
  });
  afterAll(() => strict.close());
  const strictCalls = twoFactorCalls(() => strict);

  it('walks the admin that start-up creates through setting it up at the first sign-in', async () => {
    // As `npm start` does with ADMIN_EMAIL and ADMIN_PASSWORD (or a generated password it prints).
    await ensureSystemAdmin(strict.db, { email: 'root@allot.local', password: 'first-start-password' });
    const first = await strictCalls.login('root@allot.local', 'first-start-password');
    expect(first.statusCode).toBe(403);
    expect(first.json().error).toBe('mfa_setup_required');
    const challenge = first.json<{ details: { challenge: string } }>().details.challenge;
    const setup = await strictCalls.call('POST', '/api/auth/mfa/setup', { body: { challenge } });
    const { secret } = setup.json<{ secret: string }>();
    const enabled = await strictCalls.call('POST', '/api/auth/mfa/enable', {
      body: { challenge, code: await totpCode(secret) },
    });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().session.role).toBe('system_admin');
    // Owners are not system admins: the setting is not about them.
    expect((await strictCalls.login(strict.world.users.owner.email)).statusCode).toBe(200);
  });

  it('is the default off: a system admin signs in with the password alone', async () => {
    expect((await login(t.world.users.systemAdmin.email)).statusCode).toBe(200);
  });
});

describe('a system admin turns off someone’s two-factor', () => {
  it('403 for an owner who sees the account, 404 for another tenant; the system admin’s reset is logged', async () => {
    const { orgs, users } = t.world;
    const person = await newMember('lost-phone', orgs.beta);
    await enrol(person.token);
    const reset = (token: string, userId = person.id, code?: string) =>
      call('POST', `/api/user/${userId}/mfa/reset`, { token, ...(code ? { body: { code } } : {}) });

    const byOwner = await reset(await sessionFor(t.db, users.betaOwner.id));
    expect(byOwner.statusCode).toBe(403);
    expect(byOwner.json()).toEqual({ error: 'forbidden', message: MFA_MSG.systemAdminOnly });
    expect((await reset(await sessionFor(t.db, users.owner.id))).statusCode).toBe(404);
    const systemAdmin = await sessionFor(t.db, users.systemAdmin.id);
    expect((await reset(systemAdmin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    await challengeOf(person.email);

    // The system admin's own two-factor, and a code of it in the call (CONTRACT §3).
    const withoutOwn = await reset(systemAdmin);
    expect(withoutOwn.statusCode).toBe(422);
    expect(withoutOwn.json()).toEqual({ error: 'business_rule', message: MFA_MSG.ownNeeded });
    const { recoveryCodes } = await enrol(systemAdmin);
    const noCode = await reset(systemAdmin);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().details).toEqual({ fields: { code: MFA_MSG.ownCodeNeeded } });
    expect((await reset(systemAdmin, person.id, '000000')).json().error).toBe('invalid_code');
    await challengeOf(person.email);
    expect(await auditEntries(orgs.beta, 'member_two_factor_reset')).toEqual([]);

    const done = await reset(systemAdmin, person.id, recoveryCodes[0]);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true });
    expect((await status(person.token)).statusCode).toBe(401);
    const signedIn = await login(person.email);
    expect(signedIn.statusCode).toBe(200);
    expect((await status(signedIn.json().secToken)).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      required: false,
    });
    expect(await rows(t.db, sql`select 1 from user_mfa where user_id = ${person.id}`)).toEqual([]);
    const [entry] = await auditEntries(orgs.beta, 'member_two_factor_reset');
    expect(entry).toMatchObject({
      target: { type: 'member', id: person.id, label: `${person.name} <${person.email}>` },
      before: { twoFactor: true },
      after: { twoFactor: false },
    });
    // Nothing to turn off: still answered alike, nothing logged twice.
    expect((await reset(systemAdmin, person.id, recoveryCodes[1])).statusCode).toBe(200);
    expect(await auditEntries(orgs.beta, 'member_two_factor_reset')).toHaveLength(1);
  });
});
