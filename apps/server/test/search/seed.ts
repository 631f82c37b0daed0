import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { jsonParam } from '../../src/db/json-params';
import { rows } from '../../src/db/rows';
import { postCreditTransaction, systemAccountId } from '../../src/features/credits/journal';
import type { AuthUser } from '../../src/http/authenticate';

/*
 * The data set of the search reference test, written in bulk (a few statements, quick on PGlite):
 *
 *   North Valley District (ownerA) ─ 6 schools ─ 6 units each ─ 2 classes under 3 of them: 79 organizations,
 *     with accents, hyphens, apostrophes, digits, repeated words and repeated names (ties); and 1,060 rooms
 *     under one of the schools (1,007 of them named Garcia: organization lists just past the cap);
 *     1,110 generated "… Garcia" teachers (1,010 of them also in Maple Ridge Campus 12), named people,
 *     three invitations. 'kilo' finds exactly 1,000 people or rooms, 'plus' 1,001.
 *   Southern Lakes District (ownerB) ─ 5 schools ─ 2 units each: 16 organizations, 40 generated people.
 *   Zeta Network, École Zeta, Łódź Hub 7: top-level organizations without members. One deleted organization.
 */

/**
 * Generated "… Garcia" teachers of North Valley: past the search cap of 1,000. Exactly 1,000 of them have
 * 'kilo' in their address, and 1,001 'plus'; so do the names of as many rooms (below).
 */
export const NORTH_GARCIAS = 1110;
/** Rooms of Riverside High 2, 19 in 20 named Garcia: organization lists just past the cap. */
export const GARCIA_ROOMS = 1060;
/** How many of them also belong to Maple Ridge Campus 12 (its member list passes the cap too). */
export const CAMPUS_GARCIAS = 1010;

interface OrganizationSeed {
  id: string;
  name: string;
  type: string;
  parent_id: string | null;
  depth: number;
  day: number;
  micro: number;
}

const UNIT_TYPES = ['school', 'network', 'university', 'company', 'other', 'district'] as const;

export interface SearchWorld {
  organizations: {
    north: string;
    campus12: string;
    etienne: string;
    garciaMiddle: string;
    riverside: string;
    northWing4: string;
    leaf: string;
    south: string;
    lakeside: string;
    deleted: string;
  };
  callers: {
    systemAdmin: AuthUser;
    ownerA: AuthUser;
    schoolAdmin: AuthUser;
    multiAdmin: AuthUser;
    ownerB: AuthUser;
    teacher: AuthUser;
  };
}

export async function seedSearchWorld(db: Db): Promise<SearchWorld> {
  const organizations: OrganizationSeed[] = [];
  const byName = new Map<string, OrganizationSeed>();
  const add = (name: string, type: string, parent: OrganizationSeed | null): OrganizationSeed => {
    const index = organizations.length;
    const organization = {
      id: randomUUID(),
      name,
      type,
      parent_id: parent?.id ?? null,
      depth: parent ? parent.depth + 1 : 0,
      // Five creation days and a microsecond apart now and then: ties under createdAt, and precision.
      day: index % 5,
      micro: index % 3,
    };
    organizations.push(organization);
    byName.set(name, organization);
    return organization;
  };

  const north = add('North Valley District', 'district', null);
  const schools = [
    add('Maple Ridge Campus 12', 'school', north),
    add('Saint-Étienne École', 'school', north),
    add('Garcia Middle School', 'school', north),
    add('Riverside High 2', 'school', north),
    add('Ångström Academy', 'university', north),
    add('maple ridge annex', 'other', north),
  ];
  schools.forEach((school, s) => {
    const i = s + 1;
    const units = [
      `O'Brien Annex`,
      `North Wing ${i}`,
      `École Primaire ${i}`,
      `Room 12${i}`,
      `Maple-Ridge Lab ${i}`,
      'Garcia Garcia Hall',
    ].map((name, u) => add(name, UNIT_TYPES[(s + u) % UNIT_TYPES.length] ?? 'other', school));
    for (const unit of units.slice(1, 4)) {
      add(`Class ${i}${unit.name.length % 10}B`, 'school', unit);
      add(`Cours d’Été ${unit.name.slice(-1)}${i}`, 'other', unit);
    }
  });
  // Just past the cap: 1,060 rooms of one school, 1,007 of them named Garcia one way or another.
  const riverside = byName.get('Riverside High 2');
  if (!riverside) throw new Error('no Riverside High 2');
  const rooms = new Set<OrganizationSeed>();
  for (let n = 1; n <= GARCIA_ROOMS; n++) {
    const base = n % 20 === 0 ? 'Room' : ['Garcia Room', 'Room Garcia', 'García Lab', 'Maple Garcia'][n % 4];
    // Every room is also a Quad: 'garcia quad' is a search of several words past the cap.
    const name = `${base} ${n}${n <= 1000 ? ' Kilo' : ''}${n <= 1001 ? ' Plus' : ''} Quad`;
    rooms.add(add(name, UNIT_TYPES[n % UNIT_TYPES.length] ?? 'other', riverside));
  }
  const deleted = add('Maple Ridge Deleted School', 'school', north);
  const south = add('Southern Lakes District', 'district', null);
  for (const name of [
    'Lakeside Elementary',
    'Maple Grove School',
    'Saint-Eloi College',
    'D’Arcy Hall',
    'Ærø Skole',
  ]) {
    const school = add(name, 'school', south);
    add(`O'Brien Annex`, 'other', school);
    add(`Lakes Room ${organizations.length}`, 'network', school);
  }
  add('Zeta Network', 'network', null);
  add('École Zeta', 'other', null);
  add('Łódź Hub 7', 'company', null);

  const byId = new Map(organizations.map((o) => [o.id, o]));
  const isBelow = (organization: OrganizationSeed, ancestorId: string): boolean => {
    for (let at: OrganizationSeed | undefined = organization; at; at = byId.get(at.parent_id ?? '')) {
      if (at.id === ancestorId) return true;
    }
    return false;
  };
  const northIds = organizations
    .filter((o) => o !== north && o !== deleted && !rooms.has(o) && isBelow(o, north.id))
    .map((o) => o.id);
  const southIds = organizations.filter((o) => o !== south && isBelow(o, south.id)).map((o) => o.id);
  const closure = organizations.flatMap((o) => {
    const up: { ancestor_id: string; descendant_id: string; depth: number; name: string }[] = [];
    for (
      let at: OrganizationSeed | undefined = o, depth = 0;
      at;
      at = byId.get(at.parent_id ?? ''), depth++
    ) {
      up.push({ ancestor_id: at.id, descendant_id: o.id, depth, name: o.name });
    }
    return up;
  });
  const named = (name: string): string => {
    const found = byName.get(name);
    if (!found) throw new Error(`no organization ${name}`);
    return found.id;
  };

  const callers = await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into organizations (id, name, type, phone_number, parent_id, depth, created_at)
      select r.id, r.name, r.type, '+1 555 000 1111', r.parent_id, r.depth,
        timestamptz '2024-01-01 00:00:00+00' + r.day * interval '1 day' + r.micro * interval '1 microsecond'
      from json_to_recordset(${jsonParam(organizations)})
        as r(id uuid, name text, type text, parent_id uuid, depth int, day int, micro int)`);
    await tx.execute(sql`
      insert into organization_closure (ancestor_id, descendant_id, depth, name)
      select r.ancestor_id, r.descendant_id, r.depth, r.name
      from json_to_recordset(${jsonParam(closure)}) as r(ancestor_id uuid, descendant_id uuid, depth int, name text)`);
    await tx.execute(sql`
      insert into credit_accounts (kind, organization_id)
      select k.kind, r.id from json_to_recordset(${jsonParam(organizations)}) as r(id uuid)
      cross join (values ('shared'), ('protected')) as k(kind)`);

    // People with names and addresses chosen for the word rule.
    const people = [
      { key: 'systemAdmin', name: 'Sam System', email: 'sys@allot.test', admin: true },
      { key: 'ownerA', name: 'Olga Owner', email: 'olga.owner@north-valley.test' },
      { key: 'schoolAdmin', name: 'Sid School', email: 'sid@saint-etienne.school.test' },
      { key: 'multiAdmin', name: 'Mia Multi', email: 'mia+admin@allot.test' },
      { key: 'ownerB', name: 'Bo Lakes', email: 'bo@southern-lakes.test' },
      { key: 'teacher', name: 'Tia Teacher', email: 'tia.teacher@school.test' },
      { key: 'ava', name: 'Ava García', email: 'ava.garcia+news@mail.school.test' },
      { key: 'zoe', name: 'ZOË Ångström', email: 'zoe_angstrom@lab.sub.school.test' },
      { key: 'pat', name: `Pat O'Brien`, email: 'pat.o-brien@district-a.org' },
      { key: 'gary', name: 'Gary Fields', email: 'GFields@North-Valley.test' },
      { key: 'lukasz', name: 'Łukasz Nowak', email: 'lukasz.nowak@north-valley.test' },
      { key: 'lone', name: 'Lone Garcia', email: 'lone.garcia@nowhere.test' },
      { key: 'nia', name: 'Nia New', email: 'nia.new@school.test', unverified: true },
      { key: 'ingrid', name: 'Ingrid Invitee', email: 'ingrid@southern-lakes.test' },
      { key: 'bob', name: 'Bob Brown', email: 'bob.brown@outside.test' },
      { key: 'mrj', name: 'Maple Ridge Jones', email: 'mrj@southern-lakes.test' },
      { key: 'rene', name: 'René Dupont-Garcia', email: 'rene_dupont@lakes.school.test' },
      { key: 'zed', name: 'Zoë Zed', email: 'zz@north-valley.test' },
      { key: 'dash', name: 'Anne-Marie 12B', email: 'anne-marie.12b@k12.school.test' },
    ];
    await tx.execute(sql`
      insert into users (email, name, is_system_admin, email_verified_at)
      select r.email, r.name, coalesce(r.admin, false), case when r.unverified then null else now() end
      from json_to_recordset(${jsonParam(people)}) as r(email text, name text, admin boolean, unverified boolean)`);
    const ids = new Map(
      (await rows<{ id: string; email: string }>(tx, sql`select id, email from users`)).map((u) => [
        u.email,
        u.id,
      ]),
    );
    const userId = (key: string): string => {
      const person = people.find((p) => p.key === key);
      const id = person && ids.get(person.email);
      if (!id) throw new Error(`no user ${key}`);
      return id;
    };
    const memberships: { user_id: string; organization_id: string; role: string }[] = [
      { user_id: userId('ownerA'), organization_id: north.id, role: 'organization_owner' },
      {
        user_id: userId('schoolAdmin'),
        organization_id: named('Saint-Étienne École'),
        role: 'organization_admin',
      },
      { user_id: userId('multiAdmin'), organization_id: named('North Wing 4'), role: 'organization_admin' },
      {
        user_id: userId('multiAdmin'),
        organization_id: named('Maple Grove School'),
        role: 'organization_admin',
      },
      { user_id: userId('ownerB'), organization_id: south.id, role: 'organization_owner' },
      { user_id: userId('teacher'), organization_id: named('Saint-Étienne École'), role: 'user' },
      { user_id: userId('ava'), organization_id: named('Saint-Étienne École'), role: 'user' },
      { user_id: userId('zoe'), organization_id: named('Ångström Academy'), role: 'organization_owner' },
      { user_id: userId('pat'), organization_id: named('Maple Ridge Campus 12'), role: 'organization_owner' },
      { user_id: userId('pat'), organization_id: named('Lakeside Elementary'), role: 'user' },
      { user_id: userId('gary'), organization_id: named('Garcia Middle School'), role: 'organization_admin' },
      {
        user_id: userId('lukasz'),
        organization_id: named('Maple Ridge Campus 12'),
        role: 'organization_admin',
      },
      { user_id: userId('nia'), organization_id: named('Saint-Étienne École'), role: 'user' },
      { user_id: userId('ingrid'), organization_id: named('Lakeside Elementary'), role: 'user' },
      { user_id: userId('mrj'), organization_id: named('Maple Grove School'), role: 'user' },
      { user_id: userId('rene'), organization_id: named('Saint-Eloi College'), role: 'organization_admin' },
      { user_id: userId('zed'), organization_id: named('Ångström Academy'), role: 'user' },
      { user_id: userId('dash'), organization_id: named('Saint-Étienne École'), role: 'organization_owner' },
    ];
    await tx.execute(sql`
      insert into memberships (user_id, organization_id, role)
      select r.user_id, r.organization_id, r.role
      from json_to_recordset(${jsonParam(memberships)}) as r(user_id uuid, organization_id uuid, role text)`);

    // The generated people: addresses with subdomains, '-', '_' and '.', names with accents and hyphens.
    await tx.execute(sql`
      insert into users (email, name, email_verified_at)
      select 'teacher' || n || case when n <= 1000 then '.kilo' else '' end
          || case when n <= 1001 then '-plus' else '' end || '@' || (array['school.test', 'mail.school.test', 'north-valley.test',
          'north_valley.edu', 'k12.maple-ridge.school.test'])[n % 5 + 1],
        (array['Ava', 'Ben', 'Chloé', 'Dmitri', 'Élodie', 'Femi', 'Gus', 'Hana'])[n % 8 + 1] || ' '
          || (array['García', 'Garcia', 'Garcia-Lopez', 'de Garcia'])[n % 4 + 1],
        case when n % 41 = 0 then null else now() end
      from generate_series(1, ${NORTH_GARCIAS}) n`);
    await tx.execute(sql`
      insert into users (email, name, email_verified_at)
      select 'lakes' || n || '@southern-lakes.test',
        (array['Luis', 'Marta', 'Noé', 'Olive'])[n % 4 + 1] || ' ' || (array['Garcia', 'Lake', 'Garcia Lake'])[n % 3 + 1],
        now()
      from generate_series(1, 40) n`);
    await tx.execute(sql`
      with numbered as (
        select id, substring(email from '^teacher([0-9]+)')::int as n from users where email ~ '^teacher[0-9]'
      ), units as (
        select value::uuid as id, ordinality as i from json_array_elements_text(${jsonParam(northIds)}) with ordinality
      )
      insert into memberships (user_id, organization_id, role)
      select u.id, units.id, case when u.n % 97 = 0 then 'organization_admin' else 'user' end
      from numbered u join units on units.i = u.n % ${northIds.length} + 1
      union all
      select u.id, ${named('Maple Ridge Campus 12')}::uuid, 'user' from numbered u
      where u.n <= ${CAMPUS_GARCIAS} and u.n % ${northIds.length} + 1
        <> (select i from units where id = ${named('Maple Ridge Campus 12')}::uuid)`);
    await tx.execute(sql`
      with numbered as (
        select id, substring(email from '^lakes([0-9]+)@')::int as n from users where email like 'lakes%@%'
      ), units as (
        select value::uuid as id, ordinality as i from json_array_elements_text(${jsonParam(southIds)}) with ordinality
      )
      insert into memberships (user_id, organization_id, role)
      select u.id, units.id, 'user' from numbered u join units on units.i = u.n % ${southIds.length} + 1`);

    // Invitations: what the inviter typed, which the member list shows and searches (and the user search does not).
    const invitations = [
      {
        user_id: userId('ingrid'),
        organization_id: named('Saint-Étienne École'),
        role: 'user',
        invited_name: 'Ingrid García-Invitee',
        invited_email: 'Ingrid@Southern-Lakes.test',
      },
      {
        user_id: userId('bob'),
        organization_id: named('Saint-Étienne École'),
        role: 'organization_admin',
        invited_name: `Bob O'Brien`,
        invited_email: 'bob.brown@outside.test',
      },
      {
        user_id: userId('bob'),
        organization_id: named('Maple Ridge Campus 12'),
        role: 'user',
        invited_name: 'Bobby Garcia',
        invited_email: 'bob.brown@outside.test',
      },
    ];
    await tx.execute(sql`
      insert into membership_invitations (user_id, organization_id, role, invited_name, invited_email)
      select r.user_id, r.organization_id, r.role, r.invited_name, r.invited_email
      from json_to_recordset(${jsonParam(invitations)})
        as r(user_id uuid, organization_id uuid, role text, invited_name text, invited_email text)`);

    // Credits through the journal: pools of most organizations (a quarter keep none: ties), a third of the
    // people, with repeated amounts.
    await tx.execute(sql`
      insert into credit_accounts (kind, user_id, organization_id)
      select 'user', u.id, m.organization_id from users u join memberships m on m.user_id = u.id
      where (hashtext(u.email) & 3) <> 0`);
    const accounts = await rows<{
      id: string;
      kind: string;
      organization_id: string | null;
      email: string | null;
    }>(
      tx,
      sql`select a.id, a.kind, a.organization_id, u.email from credit_accounts a left join users u on u.id = a.user_id
          where a.kind <> 'system' order by a.id`,
    );
    const position = new Map(organizations.map((o, i) => [o.id, i]));
    const lines = accounts.flatMap((a, i) => {
      if (a.kind !== 'user' && a.organization_id) {
        const index = position.get(a.organization_id) ?? 0;
        if (index % 4 === 0 || a.organization_id === deleted.id) return [];
        const amount = a.kind === 'shared' ? (index * 37) % 200 : (index * 11) % 50;
        return amount > 0 ? [{ accountId: a.id, amount }] : [];
      }
      return [{ accountId: a.id, amount: (i % 23) + 1 }];
    });
    const total = lines.reduce((sum, l) => sum + l.amount, 0);
    await postCreditTransaction(tx, {
      action: 'system_allocation',
      actorId: userId('systemAdmin'),
      lines: [{ accountId: await systemAccountId(tx), amount: -total }, ...lines],
    });

    // A deleted organization: kept, without ancestry rows, seen by no list.
    // In the order the delete itself takes (organizations/write-organizations.ts): ancestry rows first.
    await tx.execute(sql`delete from organization_closure where descendant_id = ${deleted.id}`);
    await tx.execute(sql`update organizations set deleted_at = now() where id = ${deleted.id}`);

    return Object.fromEntries(
      (['systemAdmin', 'ownerA', 'schoolAdmin', 'multiAdmin', 'ownerB', 'teacher'] as const).map((key) => {
        const person = people.find((p) => p.key === key);
        return [
          key,
          {
            sessionId: '',
            userId: userId(key),
            email: person?.email ?? '',
            name: person?.name ?? '',
            isSystemAdmin: key === 'systemAdmin',
          } satisfies AuthUser,
        ];
      }),
    ) as SearchWorld['callers'];
  });

  return {
    organizations: {
      north: north.id,
      campus12: named('Maple Ridge Campus 12'),
      etienne: named('Saint-Étienne École'),
      garciaMiddle: named('Garcia Middle School'),
      riverside: named('Riverside High 2'),
      northWing4: named('North Wing 4'),
      leaf: named('Garcia Garcia Hall'),
      south: south.id,
      lakeside: named('Lakeside Elementary'),
      deleted: deleted.id,
    },
    callers,
  };
}
