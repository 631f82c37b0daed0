import { ENTITLEMENT_REASONS, type Entitlement } from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import {
  createPerson,
  createSchool,
  insertIntegrationKey,
  invite,
  join,
  licence,
  mint,
} from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/**
 * GET /api/integration/entitlement (CONTRACT §9, issue 15) and its panel form
 * GET /api/organization/{id}/users/{userId}/entitlement: every reason, their order, the key's subtree,
 * several organizations.
 */
let t: TestApp;
let alphaKey: string;
let owner: string;

beforeAll(async () => {
  t = await createTestApp();
  alphaKey = (await insertIntegrationKey(t.db, t.world.orgs.alpha)).key;
  owner = await sessionFor(t.db, t.world.users.owner.id);
});
afterAll(() => t.close());

const check = (query: Record<string, string>, key = alphaKey) =>
  t.app.inject({ method: 'GET', url: '/api/integration/entitlement', query, headers: bearer(key) });

async function entitlement(query: Record<string, string>, key = alphaKey): Promise<Entitlement> {
  const response = await check(query, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Entitlement>();
}

let schools = 0;
/** A school of its own under Alpha District for each case, so the cases never share a pool or a licence. */
const school = (parent = t.world.orgs.alpha, name = `School ${++schools}`) =>
  createSchool(t.db, name, parent);
let people = 0;
const person = (options: { verified?: boolean } = {}) =>
  createPerson(t.db, `teacher${++people}@entitle.test`, options);

describe('an entitled teacher', () => {
  it('a seat of a live licence and credits of their own: entitled, with the licence, its expiry and the credits', async () => {
    const org = await school();
    const licenceId = await licence(t.db, org, 'chorus');
    const tia = await person();
    await join(t.db, tia.id, org, licenceId);
    await mint(t.db, { userId: tia.id }, 30);
    const [row] = await rows<{ expire_at: string | Date }>(
      t.db,
      sql`select expire_at from licenses where id = ${licenceId}`,
    );
    const expected = {
      entitled: true,
      userId: tia.id,
      email: tia.email,
      organizationId: org,
      licenseType: 'chorus',
      expireAt: new Date(row?.expire_at ?? 0).toISOString(),
      credits: { own: 30, shared: 0 },
      reasons: [],
    };
    expect(await entitlement({ email: tia.email, licenseType: 'chorus' })).toEqual(expected);
    // Without a licence type: the licence the teacher holds a seat of.
    expect(await entitlement({ email: tia.email })).toEqual(expected);
    // Emails compare without case.
    expect(await entitlement({ email: tia.email.toUpperCase(), licenseType: 'chorus' })).toEqual(expected);
  });

  it('no credits of their own but a shared pool to draw from: entitled, the pool shown', async () => {
    const org = await school();
    const tia = await person();
    await join(t.db, tia.id, org, await licence(t.db, org));
    await mint(t.db, { sharedOf: org }, 100);
    const answer = await entitlement({ email: tia.email, licenseType: 'chorus' });
    expect(answer).toMatchObject({ entitled: true, credits: { own: 0, shared: 100 }, reasons: [] });
  });
});

describe('each reason', () => {
  it('not_a_member: only a pending invitation (its held seat counts as the seat it will be)', async () => {
    const org = await school();
    const elsewhere = await school(t.world.orgs.beta, 'Elsewhere School');
    const tia = await person();
    await join(t.db, tia.id, elsewhere);
    await mint(t.db, { userId: tia.id, organizationId: elsewhere }, 5);
    await invite(t.db, tia.id, org, await licence(t.db, org));
    await mint(t.db, { sharedOf: org }, 3);
    const answer = await entitlement({ email: tia.email, licenseType: 'chorus' });
    expect(answer).toMatchObject({
      entitled: false,
      organizationId: org,
      reasons: ['not_a_member'],
      // What another organization gave the account is not this one's (CONTRACT §5), nor its id (§3).
      credits: { own: 0, shared: 3 },
    });
    expect(answer.userId).not.toBe(tia.id);
  });

  it('the account was never set up: pending, read as an invitation not accepted', async () => {
    const org = await school();
    const tia = await person({ verified: false });
    await join(t.db, tia.id, org, await licence(t.db, org));
    await mint(t.db, { userId: tia.id }, 5);
    // A new account not set up yet is pending like an invitee, and reads alike (CONTRACT §3): the reason is
    // the invitation not accepted; `not_verified` is never told apart from it.
    expect((await entitlement({ email: tia.email, licenseType: 'chorus' })).reasons).toEqual([
      'not_a_member',
    ]);
  });

  it('no_licence_of_type: the organization has no licence of that product (so no seat of it either)', async () => {
    const org = await school();
    const tia = await person();
    await join(t.db, tia.id, org, await licence(t.db, org, 'chorus'));
    await mint(t.db, { userId: tia.id }, 5);
    expect(await entitlement({ email: tia.email, licenseType: 'tle_teacher' })).toMatchObject({
      entitled: false,
      licenseType: 'tle_teacher',
      expireAt: null,
      reasons: ['no_licence_of_type', 'no_seat'],
    });
    // Without a licence type: an organization without any licence.
    const bare = await school();
    const ben = await person();
    await join(t.db, ben.id, bare);
    await mint(t.db, { userId: ben.id }, 5);
    expect(await entitlement({ email: ben.email })).toMatchObject({
      licenseType: null,
      expireAt: null,
      reasons: ['no_licence_of_type', 'no_seat'],
    });
  });

  it('licence_expired: the seat is of a licence whose expiry has passed', async () => {
    const org = await school();
    const tia = await person();
    await join(t.db, tia.id, org, await licence(t.db, org, 'chorus', true));
    await mint(t.db, { userId: tia.id }, 5);
    const answer = await entitlement({ email: tia.email, licenseType: 'chorus' });
    expect(answer.reasons).toEqual(['licence_expired']);
    expect(new Date(answer.expireAt ?? '').getTime()).toBeLessThan(Date.now());
    expect((await entitlement({ email: tia.email })).reasons).toEqual(['licence_expired']);
  });

  it('no_seat: a member without a seat of the licence', async () => {
    const org = await school();
    await licence(t.db, org, 'chorus');
    const other = await licence(t.db, org, 'tle_creator');
    const tia = await person();
    await join(t.db, tia.id, org, other);
    await mint(t.db, { userId: tia.id }, 5);
    expect((await entitlement({ email: tia.email, licenseType: 'chorus' })).reasons).toEqual(['no_seat']);
    // Without a type, the seat they hold counts.
    expect(await entitlement({ email: tia.email })).toMatchObject({
      licenseType: 'tle_creator',
      reasons: [],
    });
    const ben = await person();
    await join(t.db, ben.id, org);
    await mint(t.db, { userId: ben.id }, 5);
    expect((await entitlement({ email: ben.email })).reasons).toEqual(['no_seat']);
  });

  it('no_credits: nothing of their own and an empty shared pool', async () => {
    const org = await school();
    const tia = await person();
    await join(t.db, tia.id, org, await licence(t.db, org));
    expect(await entitlement({ email: tia.email, licenseType: 'chorus' })).toMatchObject({
      entitled: false,
      credits: { own: 0, shared: 0 },
      reasons: ['no_credits'],
    });
  });

  it('every reason at once comes in the order a person fixes them', async () => {
    const org = await school();
    const tia = await person({ verified: false });
    await invite(t.db, tia.id, org);
    // An invitee's account is not the organization's to see (CONTRACT §3): whether it verified is not told.
    expect((await entitlement({ email: tia.email, licenseType: 'chorus' })).reasons).toEqual([
      'not_a_member',
      'no_licence_of_type',
      'no_seat',
      'no_credits',
    ]);
    const expiring = await school();
    await licence(t.db, expiring, 'chorus', true);
    const ben = await person({ verified: false });
    await join(t.db, ben.id, expiring);
    const reasons = (await entitlement({ email: ben.email, licenseType: 'chorus' })).reasons;
    expect(reasons).toEqual(['not_a_member', 'licence_expired', 'no_seat', 'no_credits']);
    // Each in CONTRACT §9's order.
    const order = (r: readonly string[]) => r.map((x) => ENTITLEMENT_REASONS.indexOf(x as never));
    expect(order(reasons)).toEqual([...order(reasons)].sort((a, b) => a - b));
  });
});

describe('the key’s subtree', () => {
  it('a teacher outside it is 404, the same answer as an unknown email', async () => {
    const { schoolA, schoolB, beta } = t.world.orgs;
    const schoolAKey = (await insertIntegrationKey(t.db, schoolA)).key;
    const tia = await person();
    await join(t.db, tia.id, schoolB);
    expect((await check({ email: tia.email }, schoolAKey)).statusCode).toBe(404);
    expect((await check({ email: tia.email })).statusCode).toBe(200);

    const unknown = await check({ email: 'nobody@nowhere.test' });
    expect(unknown.statusCode).toBe(404);
    const betaMember = await check({ email: t.world.users.betaOwner.email });
    expect(betaMember.statusCode).toBe(404);
    expect(betaMember.json()).toEqual(unknown.json());
    // A member of an ancestor only is not in the subtree either.
    expect((await check({ email: t.world.users.owner.email }, schoolAKey)).statusCode).toBe(404);
    // And a key of the other tenant does not see Alpha's teachers.
    const betaKey = (await insertIntegrationKey(t.db, beta)).key;
    expect((await check({ email: t.world.users.teacher.email }, betaKey)).statusCode).toBe(404);
  });

  it('a key from below sees its own subtree: the teacher of Alpha School A from its own key', async () => {
    const schoolAKey = (await insertIntegrationKey(t.db, t.world.orgs.schoolA)).key;
    expect(await entitlement({ email: t.world.users.teacher.email }, schoolAKey)).toMatchObject({
      organizationId: t.world.orgs.schoolA,
    });
  });

  it('a session token on the call is 401, and so is a revoked key', async () => {
    const response = await check({ email: t.world.users.teacher.email }, owner);
    expect(response.statusCode).toBe(401);
    const revoked = await insertIntegrationKey(t.db, t.world.orgs.alpha);
    await t.db.execute(sql`update integration_keys set revoked_at = now() where id = ${revoked.id}`);
    expect((await check({ email: t.world.users.teacher.email }, revoked.key)).statusCode).toBe(401);
  });
});

describe('a teacher in several organizations of the subtree', () => {
  it('organizationId picks one of them; another id is 404; without it the best answers', async () => {
    const district = await school(t.world.orgs.alpha, 'Zeta Trust');
    const good = await school(district, 'Zulu School');
    const seatless = await school(district, 'Alpha Middle');
    const tia = await person();
    await join(t.db, tia.id, good, await licence(t.db, good));
    await licence(t.db, seatless);
    await join(t.db, tia.id, seatless);
    await mint(t.db, { userId: tia.id, organizationId: good }, 10);
    await mint(t.db, { userId: tia.id, organizationId: seatless }, 10);

    // Entitled first, even though the other comes first by name.
    expect(await entitlement({ email: tia.email, licenseType: 'chorus' })).toMatchObject({
      organizationId: good,
      entitled: true,
    });
    expect(
      await entitlement({ email: tia.email, licenseType: 'chorus', organizationId: seatless }),
    ).toMatchObject({ organizationId: seatless, reasons: ['no_seat'] });
    for (const organizationId of [t.world.orgs.beta, t.world.orgs.schoolA, 'not-an-id']) {
      expect((await check({ email: tia.email, organizationId })).statusCode).toBe(404);
    }
  });

  it('none entitled: the fewest reasons, then the name', async () => {
    const many = await school(t.world.orgs.alpha, 'Aardvark Academy');
    const few = await school(t.world.orgs.alpha, 'Yew School');
    const tied = await school(t.world.orgs.alpha, 'Willow School');
    const tia = await person();
    await join(t.db, tia.id, many); // no licence, no seat, no credits
    await join(t.db, tia.id, few, await licence(t.db, few)); // no credits only
    const first = await entitlement({ email: tia.email, licenseType: 'chorus' });
    expect(first).toMatchObject({ organizationId: few, reasons: ['no_credits'] });
    await join(t.db, tia.id, tied, await licence(t.db, tied)); // no credits only, and first by name
    const second = await entitlement({ email: tia.email, licenseType: 'chorus' });
    expect(second).toMatchObject({ organizationId: tied, reasons: ['no_credits'] });
  });
});

describe('the panel: GET /api/organization/{id}/users/{userId}/entitlement', () => {
  const panel = (organizationId: string, userId: string, token = owner, licenseType?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/organization/${organizationId}/users/${userId}/entitlement`,
      query: licenseType ? { licenseType } : {},
      headers: bearer(token),
    });

  it('answers what the key call answers for that organization', async () => {
    const org = await school();
    const tia = await person();
    await join(t.db, tia.id, org, await licence(t.db, org));
    await mint(t.db, { sharedOf: org }, 7);
    for (const licenseType of ['chorus', 'tle_teacher', undefined]) {
      const response = await panel(org, tia.id, owner, licenseType);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(
        await entitlement({ email: tia.email, organizationId: org, ...(licenseType ? { licenseType } : {}) }),
      );
    }
  });

  it('a pending invitee has an answer there; someone neither member nor invited is 404', async () => {
    const org = await school();
    const tia = await person();
    await invite(t.db, tia.id, org);
    // An invitee is named by the invitation's id (CONTRACT §3), and answered by it; the account's id names
    // nobody here.
    const [invitation] = await rows<{ id: string }>(
      t.db,
      sql`select id from membership_invitations where user_id = ${tia.id} and organization_id = ${org}`,
    );
    const invitationId = (invitation as { id: string }).id;
    expect((await panel(org, invitationId)).json()).toMatchObject({
      userId: invitationId,
      reasons: expect.arrayContaining(['not_a_member']),
    });
    expect((await panel(org, tia.id)).statusCode).toBe(404);
    // The teacher of School A is no member of this school, and an unknown id is no one.
    expect((await panel(org, t.world.users.teacher.id)).statusCode).toBe(404);
    expect((await panel(org, '00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    expect((await panel(org, 'nope')).statusCode).toBe(404);
  });

  it('needs manage_users there: a school admin may, another tenant and a teacher may not see it', async () => {
    const { schoolA } = t.world.orgs;
    const teacherId = t.world.users.teacher.id;
    const schoolAdmin = await sessionFor(t.db, t.world.users.schoolAdmin.id);
    expect((await panel(schoolA, teacherId, schoolAdmin)).statusCode).toBe(200);
    const betaOwner = await sessionFor(t.db, t.world.users.betaOwner.id);
    expect((await panel(schoolA, teacherId, betaOwner)).statusCode).toBe(404);
    const teacher = await sessionFor(t.db, teacherId);
    expect((await panel(schoolA, teacherId, teacher)).statusCode).toBe(404);
    // An integration key is no session.
    expect((await panel(schoolA, teacherId, alphaKey)).statusCode).toBe(401);
  });
});
