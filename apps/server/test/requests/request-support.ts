import type { UpTreeRequest } from '@allot/domain/requests';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/rows';
import { insertOrganization } from '../../src/features/organizations/tree';
import { bearer, type TestApp } from '../support/test-app';
import { sessionFor, type World } from '../support/world';

type Who = keyof World['users'];

/** Calls of the request API as any person of the test world (a session each, teachers too). */
export function requestCalls(t: TestApp) {
  const tokens = new Map<string, string>();
  const headers = async (who: Who | string) => {
    const userId = who in t.world.users ? t.world.users[who as Who].id : who;
    let token = tokens.get(userId);
    if (!token) {
      token = await sessionFor(t.db, userId);
      tokens.set(userId, token);
    }
    return bearer(token);
  };
  const post = async (who: Who | string, url: string, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: await headers(who),
      ...(payload === undefined ? {} : { payload }),
    });
  const get = async (who: Who | string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: await headers(who) });
  return {
    post,
    get,
    ask: (who: Who | string, organizationId: string, body: object) =>
      post(who, `/api/organization/${organizationId}/requests`, body),
    approve: (who: Who | string, id: string, body: object = {}) =>
      post(who, `/api/request/${id}/approve`, body),
    decline: (who: Who | string, id: string, reason: string) =>
      post(who, `/api/request/${id}/decline`, { reason }),
    cancel: (who: Who | string, id: string) => post(who, `/api/request/${id}/cancel`),
    /** A request that must be created: its body as answered. */
    async asked(who: Who | string, organizationId: string, body: object): Promise<UpTreeRequest> {
      const answer = await post(who, `/api/organization/${organizationId}/requests`, body);
      if (answer.statusCode !== 201)
        throw new Error(`request not created: ${answer.statusCode} ${answer.body}`);
      return answer.json();
    },
  };
}

/** The two pools of an organization, as stored. */
export async function poolsOf(t: TestApp, organizationId: string) {
  const found = await rows<{ kind: 'shared' | 'protected'; balance: string | number }>(
    t.db,
    sql`select kind, balance from credit_accounts
        where organization_id = ${organizationId} and kind in ('shared', 'protected')`,
  );
  const of = (kind: string) => Number(found.find((a) => a.kind === kind)?.balance ?? 0);
  return { shared: of('shared'), protected: of('protected') };
}

/** Seats of a licence type an organization holds; null without a licence of it. */
export async function seatsOf(t: TestApp, organizationId: string, type: string): Promise<number | null> {
  const [found] = await rows<{ max_users: number }>(
    t.db,
    sql`select max_users from licenses where organization_id = ${organizationId} and license_type = ${type}`,
  );
  return found ? Number(found.max_users) : null;
}

/** A new school under `parentId` with an admin of its own (a verified account); answers both. */
export async function schoolWithAdmin(t: TestApp, parentId: string, name: string) {
  return t.db.transaction(async (tx) => {
    const id = await insertOrganization(tx, {
      name,
      type: 'school',
      phoneNumber: '+1 555 000 3333',
      parentId,
    });
    const email = `admin-${Math.random().toString(36).slice(2)}@${name.toLowerCase().replace(/\W+/g, '-')}.test`;
    const [user] = await rows<{ id: string }>(
      tx,
      sql`insert into users (email, name, email_verified_at) values (${email}, ${`Admin of ${name}`}, now())
          returning id`,
    );
    if (!user) throw new Error('admin insert failed');
    await tx.execute(sql`insert into memberships (user_id, organization_id, role)
      values (${user.id}, ${id}, 'organization_admin')`);
    return { id, admin: { id: user.id, email, name: `Admin of ${name}` } };
  });
}
