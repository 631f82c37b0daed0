import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import { sqlState } from '../../src/db/transaction';
import {
  changeLicense,
  closeLicense,
  openLicense,
  returnLicensesToParent,
} from '../../src/features/licenses/ledger';
import { openTestDatabase } from '../support/test-database';
import { createWorld, giveLicense, type World } from '../support/world';

let database: Database;
let world: World;
beforeAll(async () => {
  database = await openTestDatabase();
  world = await createWorld(database.db);
});
afterAll(() => database.close());

async function refusal(work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
  } catch (error) {
    return sqlState(error);
  }
  return 'no error';
}

const entry = { action: 'seats_changed' as const, description: 'test', actorId: null };

/** A licence's seats and expiry next to what its log adds up to. */
async function ledgerOf(licenseId: string) {
  const [row] = await rows<{
    max_users: number | null;
    expire_at: Date | null;
    log: string;
    last: Date | null;
  }>(
    database.db,
    sql`select (select max_users from licenses where id = ${licenseId}) as max_users,
      (select expire_at from licenses where id = ${licenseId}) as expire_at,
      (select coalesce(sum(seats), 0) from license_events where license_id = ${licenseId}) as log,
      (select expire_at_after from license_events where license_id = ${licenseId} order by seq desc limit 1) as last`,
  );
  return {
    seats: row?.max_users === null ? null : Number(row?.max_users),
    log: Number(row?.log),
    expiryLogged:
      row?.expire_at === null ||
      new Date(row?.expire_at ?? 0).getTime() === new Date(row?.last ?? 1).getTime(),
  };
}

describe('the licence log (decision 009)', () => {
  it('refuses at commit a licence written without its log entry', async () => {
    expect(
      await refusal(() =>
        database.db.execute(sql`insert into licenses (organization_id, license_type, expire_at, max_users)
          values (${world.orgs.schoolB}, 'chorus', now() + interval '1 year', 5)`),
      ),
    ).toBe('LI001');
    const licence = await giveLicense(database.db, world.orgs.schoolB, 'tle_creator', 5);
    expect(
      await refusal(() =>
        database.db.execute(sql`update licenses set max_users = 50 where id = ${licence.id}`),
      ),
    ).toBe('LI001');
    expect(
      await refusal(() =>
        database.db.execute(
          sql`update licenses set expire_at = expire_at + interval '1 year' where id = ${licence.id}`,
        ),
      ),
    ).toBe('LI001');
    expect(await refusal(() => database.db.execute(sql`delete from licenses where id = ${licence.id}`))).toBe(
      'LI001',
    );
    expect(await ledgerOf(licence.id)).toEqual({ seats: 5, log: 5, expiryLogged: true });
  });

  it('keeps the log append-only', async () => {
    const licence = await giveLicense(database.db, world.orgs.annex, 'chorus', 3);
    expect(
      await refusal(() =>
        database.db.execute(sql`update license_events set seats = 30 where license_id = ${licence.id}`),
      ),
    ).toBe('LI002');
    expect(
      await refusal(() =>
        database.db.execute(sql`delete from license_events where license_id = ${licence.id}`),
      ),
    ).toBe('LI002');
    expect(await refusal(() => database.db.execute(sql`truncate license_events`))).toBe('LI002');
  });

  it('adds up after opening, changing and closing licences, one statement each', async () => {
    const opened = await openLicense(
      database.db,
      {
        organizationId: world.orgs.beta,
        licenseType: 'tle_teacher',
        expireAt: '2031-06-30T00:00:00.000Z',
        seats: 10,
      },
      { action: 'created', description: 'test', actorId: world.users.systemAdmin.id },
    );
    if (!opened) throw new Error('not opened');
    expect(opened).toMatchObject({ maxUsers: 10, expireAt: '2031-06-30T00:00:00.000Z' });
    const again = await openLicense(
      database.db,
      {
        organizationId: world.orgs.beta,
        licenseType: 'tle_teacher',
        expireAt: '2031-06-30T00:00:00.000Z',
        seats: 1,
      },
      entry,
    );
    expect(again).toBeNull();
    const changed = await changeLicense(
      database.db,
      opened.id,
      { seats: -4, expireAt: '2032-01-01T00:00:00.000Z' },
      entry,
    );
    expect(changed).toMatchObject({ maxUsers: 6, expireAt: '2032-01-01T00:00:00.000Z' });
    expect(await ledgerOf(opened.id)).toEqual({ seats: 6, log: 6, expiryLogged: true });
    expect(await refusal(() => changeLicense(database.db, opened.id, { seats: -7 }, entry))).toBe('23514');
    await closeLicense(database.db, opened.id, { ...entry, action: 'deleted' });
    expect(await ledgerOf(opened.id)).toEqual({ seats: null, log: 0, expiryLogged: true });
    const log = await rows<{ action: string; seats: number; max_users_after: number }>(
      database.db,
      sql`select action, seats, max_users_after from license_events where license_id = ${opened.id} order by seq`,
    );
    expect(log).toEqual([
      { action: 'created', seats: 10, max_users_after: 10 },
      { action: 'seats_changed', seats: -4, max_users_after: 6 },
      { action: 'deleted', seats: -6, max_users_after: 0 },
    ]);
  });

  it('gives a deleted organization’s seats back to its parent, logged on both sides', async () => {
    const parentChorus = world.alphaLicenseId;
    const before = (await ledgerOf(parentChorus)).seats ?? 0;
    const child = await giveLicense(database.db, world.orgs.schoolA, 'chorus', 7, '2029-01-01T00:00:00.000Z');
    const teacher = await giveLicense(
      database.db,
      world.orgs.schoolA,
      'tle_teacher',
      4,
      '2029-01-01T00:00:00.000Z',
    );
    await database.db.transaction((tx) =>
      returnLicensesToParent(
        tx,
        { id: world.orgs.schoolA, name: 'Alpha School A', parentId: world.orgs.alpha },
        null,
      ),
    );
    expect(await ledgerOf(parentChorus)).toEqual({
      seats: before + 7,
      log: before + 7,
      expiryLogged: true,
    });
    expect(await ledgerOf(child.id)).toEqual({ seats: null, log: 0, expiryLogged: true });
    expect(await ledgerOf(teacher.id)).toEqual({ seats: null, log: 0, expiryLogged: true });
    const [parentTeacher] = await rows<{ id: string; max_users: number; expire_at: Date }>(
      database.db,
      sql`select id, max_users, expire_at from licenses where organization_id = ${world.orgs.alpha}
          and license_type = 'tle_teacher'`,
    );
    expect(parentTeacher?.max_users).toBe(4);
    expect(new Date(parentTeacher?.expire_at ?? 0).toISOString()).toBe('2029-01-01T00:00:00.000Z');
    const actions = await rows<{ action: string; seats: number }>(
      database.db,
      sql`select action, seats from license_events where organization_id = ${world.orgs.alpha}
          and action = 'organization_deleted' order by seats desc`,
    );
    expect(actions).toEqual([
      { action: 'organization_deleted', seats: 7 },
      { action: 'organization_deleted', seats: 4 },
    ]);
  });
});

describe('seats in use never above the seats held (LI003, issue 30)', () => {
  const person = async (email: string) => {
    const [row] = await rows<{ id: string }>(
      database.db,
      sql`insert into users (email, name) values (${email}, 'Seat Holder') returning id`,
    );
    return row?.id as string;
  };
  const member = (userId: string, organizationId: string, licenseId: string | null) =>
    database.db.execute(sql`insert into memberships (user_id, organization_id, role, license_id)
      values (${userId}, ${organizationId}, 'user', ${licenseId})`);
  const invite = (userId: string, organizationId: string, licenseId: string | null) =>
    database.db.execute(sql`insert into membership_invitations
      (user_id, organization_id, role, license_id, invited_name, invited_email)
      values (${userId}, ${organizationId}, 'user', ${licenseId}, 'Seat Holder', 'held@seats.test')`);

  it('refuses a holder beyond the seats, a move onto a full licence, and seats lowered below the holders', async () => {
    const full = await giveLicense(database.db, world.orgs.beta, 'chorus', 1);
    const other = await giveLicense(database.db, world.orgs.beta, 'chorus_optoma', 3);
    const [one, two, three] = [
      await person('one@li003.test'),
      await person('two@li003.test'),
      await person('three@li003.test'),
    ];
    await member(one, world.orgs.beta, full.id);
    expect(await refusal(() => member(two, world.orgs.beta, full.id))).toBe('LI003');
    expect(await refusal(() => invite(two, world.orgs.beta, full.id))).toBe('LI003');
    await member(two, world.orgs.beta, other.id);
    await invite(three, world.orgs.beta, other.id);
    expect(
      await refusal(() =>
        database.db.execute(sql`update memberships set license_id = ${full.id} where user_id = ${two}`),
      ),
    ).toBe('LI003');
    expect(
      await refusal(() =>
        database.db.execute(
          sql`update membership_invitations set license_id = ${full.id} where user_id = ${three}`,
        ),
      ),
    ).toBe('LI003');
    // Two holders of `other` (a member and an invitation): 2 seats are the least it may keep.
    expect(await refusal(() => changeLicense(database.db, other.id, { seats: -2 }, entry))).toBe('LI003');
    expect((await changeLicense(database.db, other.id, { seats: -1 }, entry)).maxUsers).toBe(2);
    // A change that leaves the holders where they are, and a holder let go, are never refused.
    await database.db.execute(sql`update memberships set role = 'organization_admin' where user_id = ${one}`);
    await database.db.execute(sql`update memberships set license_id = null where user_id = ${two}`);
    expect((await changeLicense(database.db, other.id, { seats: -1 }, entry)).maxUsers).toBe(1);
  });

  it('lets a licence left overbooked (by older code) lose holders and gain seats', async () => {
    const licence = await giveLicense(database.db, world.orgs.schoolB, 'chorus_optoma', 1);
    const [a, b] = [await person('a@li003.test'), await person('b@li003.test')];
    // Written as older code could have written it: the checks of this database switched off.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into memberships (user_id, organization_id, role, license_id)
        values (${a}, ${world.orgs.schoolB}, 'user', ${licence.id}), (${b}, ${world.orgs.schoolB}, 'user', ${licence.id})`);
    });
    expect(
      (
        await changeLicense(
          database.db,
          licence.id,
          { seats: 0, expireAt: '2031-01-01T00:00:00.000Z' },
          entry,
        )
      ).maxUsers,
    ).toBe(1);
    await database.db.execute(sql`delete from memberships where user_id = ${a}`);
    expect((await changeLicense(database.db, licence.id, { seats: 2 }, entry)).maxUsers).toBe(3);
  });

  it.runIf(process.env.ALLOT_TEST_DB === 'postgres')(
    'two transactions that locked nothing, racing for the last seat: the second waits for the first and is refused',
    async () => {
      const licence = await giveLicense(database.db, world.orgs.annex, 'tle_creator', 1);
      const [first, second] = [await person('first@li003.test'), await person('second@li003.test')];
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted = () => {};
      const firstIn = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      const firstDone = database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into memberships (user_id, organization_id, role, license_id)
          values (${first}, ${world.orgs.annex}, 'user', ${licence.id})`);
        inserted();
        await held;
      });
      await firstIn;
      // Without the check's lock the second would count its own seat only (the first is not committed).
      const secondDone = refusal(() => member(second, world.orgs.annex, licence.id));
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await firstDone;
      expect(await secondDone).toBe('LI003');
    },
  );
});
