import { AUDIT_CSV_HEADER } from '@allot/domain/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCalls } from '../support/calls';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

let t: TestApp;
let call: Awaited<ReturnType<typeof signedInCalls>>;
let teacherToken: string;
type Entry = {
  id: string;
  action: string;
  organization: { id: string; name: string };
  actor: { id: string; name: string; email: string } | null;
  target: { type: string; id: string | null; label: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};
type Page = { data: Entry[]; pagination: { hasNext: boolean; nextPageToken: string | null } };
type Who = Parameters<typeof call.get>[0];

const today = new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function auditLog(orgId: string, query = '', who: Who = 'owner'): Promise<Page> {
  const response = await call.get(who, `/api/organization/${orgId}/audit-log${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Page>();
}

/** Every entry of the log through its pages, `limit` at a time. */
async function allPages(orgId: string, query: string, limit: number): Promise<Entry[]> {
  const all: Entry[] = [];
  let token: string | null = null;
  do {
    const tokenPart: string = token ? `&pageToken=${token}` : '';
    const page = await auditLog(orgId, `?limit=${limit}${query}${tokenPart}`);
    all.push(...page.data);
    token = page.pagination.nextPageToken;
  } while (token);
  return all;
}

/** RFC 4180 as the server writes it: every cell quoted, quotes doubled, lines ending in CRLF. */
function parseCsv(body: string): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted && c === '"' && body[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      line.push(cell);
      cell = '';
    } else if (!quoted && c === '\r' && body[i + 1] === '\n') {
      line.push(cell);
      lines.push(line);
      line = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  expect(line).toEqual([]);
  return lines;
}

let childId = '';
let creditTransactionId = '';
beforeAll(async () => {
  t = await createTestApp();
  call = await signedInCalls(t, ['systemAdmin', 'owner', 'admin', 'schoolAdmin', 'betaOwner']);
  teacherToken = await sessionFor(t.db, t.world.users.teacher.id);
  const ok = async (p: Promise<{ statusCode: number; body: string; json: <T>() => T }>) => {
    const r = await p;
    if (r.statusCode >= 300) throw new Error(`setup call failed: ${r.statusCode} ${r.body}`);
    return r;
  };
  const { orgs, users } = t.world;
  // The changes the log must show, by several people at several levels.
  await ok(
    call.post('owner', `/api/organization/${orgs.schoolA}/update`, {
      name: 'Alpha School A (renamed)',
      type: 'school',
      phoneNumber: '+1 555 000 1111',
    }),
  );
  const child = await ok(
    call.post('admin', '/api/organization/create', {
      name: 'Short-lived Annex',
      type: 'school',
      phoneNumber: '+1 555 000 2222',
      parentOrganizationId: orgs.schoolA,
    }),
  );
  childId = child.json<{ id: string }>().id;
  await ok(
    call.post('schoolAdmin', `/api/user/${users.teacher.id}/update/role`, {
      organizationId: orgs.schoolA,
      role: 'organization_admin',
    }),
  );
  const moved = await ok(
    call.post('owner', '/api/credit/assign/organizations', {
      sourceOrganizationId: orgs.alpha,
      targetOrganizationIds: [orgs.schoolA],
      amount: 40,
      fromOrganizationPoolType: 'shared',
      toOrganizationPoolType: 'shared',
    }),
  );
  creditTransactionId = moved.json<{ transactionId: string }>().transactionId;
  await ok(
    t.app.inject({
      method: 'DELETE',
      url: `/api/organization/${childId}/delete`,
      headers: bearer(await sessionFor(t.db, users.owner.id)),
    }),
  );
  await ok(
    call.post('betaOwner', `/api/organization/${orgs.beta}/update`, {
      name: 'Beta Network (renamed)',
      type: 'network',
      phoneNumber: '+1 555 000 3333',
    }),
  );
});
afterAll(() => t.close());

describe('audit log (CONTRACT §10)', () => {
  it('records each change in its transaction: who, where, what, before and after', async () => {
    const { data } = await auditLog(t.world.orgs.alpha, '?limit=100');
    const { orgs, users } = t.world;
    const renamed = data.find((e) => e.action === 'organization_updated');
    expect(renamed).toMatchObject({
      organization: { id: orgs.schoolA, name: 'Alpha School A (renamed)' },
      actor: { id: users.owner.id, name: 'Olga Owner', email: 'owner@alpha.test' },
      target: { type: 'organization', id: orgs.schoolA, label: 'Alpha School A (renamed)' },
      after: { name: 'Alpha School A (renamed)' },
    });
    expect(renamed?.before).toEqual({ name: 'Alpha School A' });
    expect(renamed?.after).not.toHaveProperty('phoneNumber');

    const role = data.find((e) => e.action === 'member_role_changed');
    expect(role).toMatchObject({
      organization: { id: orgs.schoolA },
      actor: { id: users.schoolAdmin.id },
      target: { type: 'member', id: users.teacher.id, label: 'Tia Teacher <teacher@school-a.test>' },
      before: { role: 'user' },
      after: { role: 'organization_admin' },
    });

    const credits = data.filter((e) => e.action === 'credits_moved');
    expect(credits.map((e) => e.organization.id).sort()).toEqual([orgs.alpha, orgs.schoolA].sort());
    for (const e of credits)
      expect(e.target).toMatchObject({ type: 'credit_transaction', id: creditTransactionId });
    const fromAlpha = credits.find((e) => e.organization.id === orgs.alpha);
    expect(Number(fromAlpha?.before?.shared) - Number(fromAlpha?.after?.shared)).toBe(40);
    const intoSchool = credits.find((e) => e.organization.id === orgs.schoolA);
    expect(Number(intoSchool?.after?.shared) - Number(intoSchool?.before?.shared)).toBe(40);
    // The credit log entry it links to has the same id.
    const creditLog = await call.get('owner', `/api/organization/${orgs.alpha}/credit-log?limit=5`);
    expect(creditLog.json<{ data: { id: string }[] }>().data.map((e) => e.id)).toContain(creditTransactionId);
  });

  it('keeps the entries of a deleted organization in the log of the organizations above it', async () => {
    const { data } = await auditLog(t.world.orgs.schoolA, '?limit=100', 'schoolAdmin');
    const aboutChild = data.filter((e) => e.target.id === childId).map((e) => e.action);
    expect(aboutChild).toEqual(['organization_deleted', 'organization_created']);
    const created = data.find((e) => e.action === 'organization_created');
    expect(created).toMatchObject({
      organization: { id: childId, name: 'Short-lived Annex' },
      actor: { id: t.world.users.admin.id },
      before: null,
      after: { name: 'Short-lived Annex', type: 'school' },
    });
  });

  it('shows an organization its subtree only, never another tenant’s changes', async () => {
    const school = await auditLog(t.world.orgs.schoolA, '?limit=100', 'schoolAdmin');
    expect(school.data.length).toBeGreaterThan(0);
    expect(school.data.some((e) => e.organization.id === t.world.orgs.alpha)).toBe(false);
    const alpha = await auditLog(t.world.orgs.alpha, '?limit=100');
    expect(alpha.data.some((e) => e.organization.id === t.world.orgs.beta)).toBe(false);
    const beta = await auditLog(t.world.orgs.beta, '?limit=100', 'betaOwner');
    expect(beta.data.map((e) => e.action)).toEqual(['organization_updated']);
    expect(
      (await call.get('betaOwner', `/api/organization/${t.world.orgs.alpha}/audit-log`)).statusCode,
    ).toBe(404);
    const teacher = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${t.world.orgs.beta}/audit-log`,
      headers: bearer(teacherToken),
    });
    expect(teacher.statusCode).toBe(404);
  });

  it('filters by actor, action, organization and day, and pages newest first', async () => {
    const { orgs, users } = t.world;
    const byAdmin = await auditLog(orgs.alpha, `?actorId=${users.schoolAdmin.id}`);
    expect(byAdmin.data.map((e) => e.action)).toEqual(['member_role_changed']);
    const two = await auditLog(orgs.alpha, '?action=organization_created&action=organization_deleted');
    expect(two.data.map((e) => e.action)).toEqual(['organization_deleted', 'organization_created']);
    const inAlphaItself = await auditLog(orgs.alpha, `?organizationId=${orgs.alpha}`);
    expect(inAlphaItself.data.map((e) => e.action)).toEqual(['credits_moved']);
    expect((await auditLog(orgs.alpha, `?organizationId=${orgs.beta}`)).data).toEqual([]);
    expect((await auditLog(orgs.alpha, `?from=${today}&to=${today}`)).data.length).toBe(
      (await auditLog(orgs.alpha, '?limit=100')).data.length,
    );
    expect((await auditLog(orgs.alpha, `?to=${dayOffset(-1)}`)).data).toEqual([]);
    expect((await auditLog(orgs.alpha, `?from=${dayOffset(1)}`)).data).toEqual([]);

    const everything = (await auditLog(orgs.alpha, '?limit=100')).data;
    const paged = await allPages(orgs.alpha, '', 2);
    expect(paged.map((e) => e.id)).toEqual(everything.map((e) => e.id));
  });

  it('refuses bad filters with a 400 on the field', async () => {
    const url = `/api/organization/${t.world.orgs.alpha}/audit-log`;
    const cases: [string, string][] = [
      ['?from=2025-02-30', 'from'],
      ['?to=yesterday', 'to'],
      [`?from=${dayOffset(1)}&to=${today}`, 'from'],
      ['?action=organization_exploded', 'action'],
      ['?pageToken=nonsense', 'pageToken'],
      ['?limit=101', 'limit'],
    ];
    for (const [query, field] of cases) {
      for (const suffix of ['', '/export']) {
        if (suffix && (field === 'pageToken' || field === 'limit')) continue;
        const base = suffix ? url + suffix : url;
        const response = await call.get('owner', base + query);
        expect(response.statusCode, `${base}${query}`).toBe(400);
        expect(response.json().details.fields, `${base}${query}`).toHaveProperty(field);
      }
    }
    expect((await call.get('owner', `${url}?actorId=not-a-uuid`)).json().data).toEqual([]);
  });
});

describe('audit log export (CONTRACT §10)', () => {
  it('is a CSV of exactly the rows the same filters list, every page, with a file name', async () => {
    const { orgs } = t.world;
    for (const query of ['', '?action=credits_moved', `?organizationId=${orgs.schoolA}&from=${today}`]) {
      const listed = await allPages(orgs.alpha, query.replace('?', '&'), 3);
      const response = await call.get('owner', `/api/organization/${orgs.alpha}/audit-log/export${query}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const [header, ...lines] = parseCsv(response.body);
      expect(header).toEqual([...AUDIT_CSV_HEADER]);
      expect(lines.map((l) => l[8])).toEqual(listed.map((e) => e.target.id ?? ''));
      expect(lines.map((l) => l[0])).toEqual(listed.map((e) => (e as unknown as { date: string }).date));
      expect(lines.map((l) => l[3])).toEqual(listed.map((e) => e.organization.id));
    }
  });

  it('writes before and after as JSON and never a formula', async () => {
    await call.post('owner', `/api/organization/${t.world.orgs.annex}/update`, {
      name: '=HYPERLINK("http://evil.test")',
      type: 'school',
      phoneNumber: '+1 555 000 1111',
    });
    const response = await call.get(
      'owner',
      `/api/organization/${t.world.orgs.alpha}/audit-log/export?organizationId=${t.world.orgs.annex}`,
    );
    const [, first] = parseCsv(response.body);
    expect(first?.[1]).toBe('Organization changed');
    expect(first?.[2]).toBe(`'=HYPERLINK("http://evil.test")`);
    expect(JSON.parse(first?.[10] ?? '')).toEqual({ name: '=HYPERLINK("http://evil.test")' });
  });

  it('answers a JSON 403/404 before any CSV', async () => {
    const url = (org: string) => `/api/organization/${org}/audit-log/export`;
    const other = await call.get('betaOwner', url(t.world.orgs.alpha));
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ error: 'not_found' });
    const none = await t.app.inject({ method: 'GET', url: url(t.world.orgs.alpha) });
    expect(none.statusCode).toBe(401);
  });
});

describe('credit log date range and export (CONTRACT §10)', () => {
  it('lists and exports the same rows for a range', async () => {
    const org = t.world.orgs.alpha;
    const list = (q: string) => call.get('owner', `/api/organization/${org}/credit-log${q}`);
    const all = (await list('?limit=100')).json<{ data: { id: string; credits: number }[] }>().data;
    expect(all.length).toBeGreaterThan(1);
    expect((await list(`?from=${today}&to=${today}&limit=100`)).json().data).toEqual(all);
    expect((await list(`?to=${dayOffset(-1)}`)).json().data).toEqual([]);
    expect((await list(`?from=${today}&to=${dayOffset(-1)}`)).statusCode).toBe(400);

    const response = await call.get('owner', `/api/organization/${org}/credit-log/export?from=${today}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/filename="credit-log-/);
    const [header, ...lines] = parseCsv(response.body);
    expect(header?.[0]).toBe('Date (UTC)');
    expect(lines.map((l) => l.at(-1))).toEqual(all.map((e) => e.id));
    // Issue 30: a negative amount stays a number a spreadsheet adds up (`-600`, never `'-600`).
    expect(lines.map((l) => l[2])).toEqual(all.map((e) => `${e.credits}`));
    expect(all.some((e) => e.credits < 0)).toBe(true);
    const empty = await call.get('owner', `/api/organization/${org}/credit-log/export?to=${dayOffset(-1)}`);
    expect(parseCsv(empty.body)).toHaveLength(1);
    expect((await call.get('schoolAdmin', `/api/organization/${org}/credit-log/export`)).statusCode).toBe(
      404,
    );
  });
});
