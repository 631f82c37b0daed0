import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { insertIntegrationKey } from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';
import { type Operation, operationsOf } from './openapi-operations';
import { type FuzzRequest, type Known, requestFor } from './request-arbitraries';

/**
 * Every operation of the OpenAPI document, sent generated requests (fitting, odd, huge, wrong, deep, broken)
 * by the owner of a tenant, by the owner of another tenant and without a token: no answer is a 5xx, and
 * every 4xx is the contract's error body (CONTRACT §1). CI runs a fixed seed; `npm run fuzz` runs many more
 * with a new seed (printed, so that a failure can be replayed with FUZZ_SEED).
 */
const LONG_RUN = process.env.FUZZ_RUNS !== undefined;
/** CI: always the same requests. A long run: new ones each time, unless FUZZ_SEED replays a run. */
const SEED = Number(process.env.FUZZ_SEED ?? (LONG_RUN ? Date.now() % 2 ** 31 : 20_261_123));
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
if (LONG_RUN) console.info(`fuzz: seed ${SEED}, ${RUNS} runs per operation and caller`);

let t: TestApp;
let operations: Operation[] = [];
let known: Known;
const serverErrors: string[] = [];
/** Answers by operation and status: printed in a long run, to see how deep the requests reached. */
const answered = new Map<string, Map<number, number>>();

beforeAll(async () => {
  // The server's error log: a 5xx is reported with the error behind it.
  const log = new Writable({
    write(chunk, _encoding, done) {
      serverErrors.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({ logger: { level: 'error', stream: log } });
  operations = await operationsOf(t.app);
  alphaKey = (await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Fuzz key')).key;
  const { orgs, users, alphaLicenseId } = t.world;
  // Requests up the tree (CONTRACT §11) for the request calls to decide: open ones, of credits and of seats.
  const requests = await rows<{ id: string }>(
    t.db,
    sql`insert into organization_requests
        (organization_id, parent_organization_id, kind, amount, pool, license_type, created_by)
      values (${orgs.schoolA}, ${orgs.alpha}, 'credits', 5, 'shared', null, ${users.schoolAdmin.id}),
        (${orgs.schoolB}, ${orgs.alpha}, 'seats', 2, null, 'chorus', ${users.admin.id}),
        (${orgs.annex}, ${orgs.schoolA}, 'credits', 1, 'protected', null, ${users.schoolAdmin.id})
      returning id`,
  );
  known = {
    ids: [
      ...Object.values(orgs),
      ...Object.values(users).map((u) => u.id),
      alphaLicenseId,
      ...requests.map((r) => r.id),
    ],
    emails: Object.values(users).map((u) => u.email),
  };
});
afterAll(async () => {
  if (LONG_RUN) {
    for (const [operation, statuses] of answered) {
      const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
      console.info(`${operation}: ${counts.join(' ')}`);
    }
  }
  await t.close();
});

let alphaKey = '';
/** Who sends the requests, and to which operations: a session to every one, a key to the integration calls. */
const ACTORS: Record<string, { token: () => Promise<string | null>; fuzzes: (o: Operation) => boolean }> = {
  owner: { token: () => sessionFor(t.db, t.world.users.owner.id), fuzzes: () => true },
  otherTenant: { token: () => sessionFor(t.db, t.world.users.betaOwner.id), fuzzes: () => true },
  anonymous: { token: async () => null, fuzzes: () => true },
  // The classroom product's key of the Alpha district: its calls reach the services with the world's people.
  integrationKey: { token: async () => alphaKey, fuzzes: (o) => o.takesKey },
};

const show = (request: FuzzRequest) =>
  JSON.stringify({ ...request, payload: request.payload?.slice(0, 500) }, null, 1);

let ip = 0;
async function send(request: FuzzRequest, token: string | null) {
  ip = (ip + 1) % 65_000;
  return t.app.inject({
    method: request.method,
    url: request.url,
    headers: { ...request.headers, ...(token ? bearer(token) : {}) },
    remoteAddress: `10.${(ip >> 8) & 255}.${ip & 255}.7`,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
}

/** The contract's error body and nothing else: `{error, message, details?}`. */
function isErrorBody(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const keys = Object.keys(parsed);
    return (
      typeof parsed.error === 'string' &&
      typeof parsed.message === 'string' &&
      keys.every((k) => ['error', 'message', 'details'].includes(k)) &&
      (parsed.details === undefined || (typeof parsed.details === 'object' && parsed.details !== null))
    );
  } catch {
    return false;
  }
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it('lists the operations it fuzzes', () => {
    expect(operations.length).toBeGreaterThan(25);
    expect(operations.some((o) => o.path === '/api/organization/create')).toBe(true);
  });

  it('fuzzes the integration calls with a key', () => {
    const withKey = operations.filter((o) => o.takesKey).map((o) => `${o.method} ${o.path}`);
    expect(withKey).toEqual(
      expect.arrayContaining(['POST /api/integration/consume', 'POST /api/integration/consume/batch']),
    );
  });

  for (const [actor, { token: tokenOf, fuzzes }] of Object.entries(ACTORS)) {
    it(
      `answers no 5xx and only the contract's error body, as ${actor}`,
      async () => {
        for (const operation of operations.filter(fuzzes)) {
          await fc.assert(
            fc.asyncProperty(requestFor(operation, known), async (request) => {
              const errorsBefore = serverErrors.length;
              const response = await send(request, await tokenOf());
              const key = `${operation.method} ${operation.path}`;
              const statuses = answered.get(key) ?? new Map<number, number>();
              statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
              answered.set(key, statuses);
              const where = `${operation.method} ${operation.path} as ${actor}\nrequest: ${show(request)}\nanswer: ${response.statusCode} ${response.body.slice(0, 500)}`;
              if (response.statusCode >= 500) {
                throw new Error(
                  `${where}\nserver log:\n${serverErrors.slice(errorsBefore).join('\n').slice(0, 3_000)}`,
                );
              }
              if (response.statusCode >= 400 && !isErrorBody(response.body)) {
                throw new Error(`not the contract's error body: ${where}`);
              }
            }),
            { seed: SEED, numRuns: RUNS, endOnFailure: true },
          );
        }
        await t.app.background.settle();
      },
      Math.max(120_000, RUNS * 4_000),
    );
  }
});
