import type { ReclaimStrategy } from '@allot/domain/credits';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import {
  balancesByKey,
  type ConsumptionItem,
  conservationViolations,
  journalSince,
  LedgerModel,
  ledgerViolations,
  type MoveRequest,
  memberKey,
  normalized,
  seededRandom,
} from './ledger';
import type { World } from './world';

/**
 * People in two tenants (CONTRACT §5): Sol is a teacher of Alpha School B and of Beta Network, Bea a teacher of
 * Beta Network only. Credits Beta gives Sol are Beta's: Alpha's moves and key never reach them, and Beta's
 * never reach what Alpha gave.
 */
export interface TwoTenants {
  sol: { id: string; email: string };
  bea: { id: string; email: string };
}

/** Adds Sol and Bea to the world (once: a second call finds them). */
export async function twoTenants(db: Tx, world: World): Promise<TwoTenants> {
  const person = async (email: string, name: string, organizationIds: string[]) => {
    await db.execute(sql`insert into users (email, name, email_verified_at) values (${email}, ${name}, now())
      on conflict do nothing`);
    const [row] = await rows<{ id: string }>(db, sql`select id from users where email = ${email}`);
    const id = (row as { id: string }).id;
    for (const organizationId of organizationIds) {
      await db.execute(sql`insert into memberships (user_id, organization_id, role)
        values (${id}, ${organizationId}, 'user') on conflict do nothing`);
    }
    return { id, email };
  };
  return {
    sol: await person('sol@both.test', 'Sol Both', [world.orgs.schoolB, world.orgs.beta]),
    bea: await person('bea@beta.test', 'Bea Beta', [world.orgs.beta]),
  };
}

/**
 * Who sends a request: a session of Alpha District's owner, of the system admin or of Beta Network's owner, or
 * the integration key of Alpha District or of Beta Network.
 */
export type Who = 'owner' | 'systemAdmin' | 'integration' | 'betaOwner' | 'betaIntegration';
export interface Answer {
  status: number;
  body: {
    transactionId?: string;
    error?: string;
    /** A consumption's answer (issue 15). */
    fromOwn?: number;
    fromShared?: number;
    balances?: { own: number; shared: number } | null;
    /** A batch's answer (issue 31): one result for each item, in order. */
    results?: {
      status: 'consumed' | 'refused';
      fromOwn: number;
      fromShared: number;
      balances: { own: number; shared: number } | null;
      error?: string;
    }[];
  };
}
/** How a workload reaches the API: `app.inject` in one process, or HTTP to real server processes. */
export type Send = (who: Who, request: MoveRequest, idempotencyKey?: string) => Promise<Answer>;

interface Sent {
  who: Who;
  request: MoveRequest;
  key?: string;
  answer?: Answer;
}

type Random = ReturnType<typeof seededRandom>;

function subset<T>(random: Random, items: readonly T[]): T[] {
  const chosen = items.filter(() => random.chance(0.5));
  return chosen.length > 0 ? chosen : [random.pick(items)];
}

let references = 0;

export const CONSUME_URL = '/api/integration/consume';
export const CONSUME_BATCH_URL = '/api/integration/consume/batch';

/** A consumption of the classroom product, single or a batch (both require an Idempotency-Key). */
export const isConsumption = (request: MoveRequest) =>
  request.url === CONSUME_URL || request.url === CONSUME_BATCH_URL;

type Place = readonly [{ id: string; email: string }, string, Who];

/**
 * Whose consumptions the classroom product sends, with which key: Alpha District's key for four members, each
 * in one organization of its subtree (and Sol in Alpha School B); Beta Network's key for Sol and Bea there.
 */
function consumptionPlaces(world: World, tenants?: TwoTenants): Place[] {
  const { alpha, schoolA, schoolB, beta } = world.orgs;
  const { teacher, schoolAdmin, admin, owner } = world.users;
  return [
    [teacher, schoolA, 'integration'],
    [schoolAdmin, schoolA, 'integration'],
    [admin, alpha, 'integration'],
    [owner, alpha, 'integration'],
    ...(tenants
      ? ([
          [tenants.sol, schoolB, 'integration'],
          [tenants.sol, beta, 'betaIntegration'],
          [tenants.bea, beta, 'betaIntegration'],
        ] as const)
      : []),
  ];
}

/** One consumption at `place`: the organization named or not, `credits` from the balance, then the pool. */
function consumptionItem(random: Random, [member, organizationId]: Place) {
  return {
    body: {
      email: member.email,
      credits: 1 + random.int(random.chance(0.2) ? 400 : 80),
      reference: `ref-${Date.now().toString(36)}-${references++}`,
      ...(random.chance(0.5) ? { organizationId } : {}),
    },
    userId: member.id,
    organizationId,
  };
}

/**
 * A consumption by the classroom product (issue 15) with one key; a third of them a batch (issue 31) of 2 to 8
 * consumptions of that key's members, in any order, a member possibly twice.
 */
function randomConsumption(
  random: Random,
  world: World,
  tenants?: TwoTenants,
): { who: Who; request: MoveRequest } {
  const places = consumptionPlaces(world, tenants);
  if (random.chance(1 / 3)) {
    const who = random.pick([...new Set(places.map((p) => p[2]))]);
    const mine = places.filter((p) => p[2] === who);
    const items = Array.from({ length: 2 + random.int(7) }, () => consumptionItem(random, random.pick(mine)));
    return {
      who,
      request: {
        url: CONSUME_BATCH_URL,
        body: { items: items.map((i) => i.body) },
        places: items.map((i) => ({ userId: i.userId, organizationId: i.organizationId })),
      },
    };
  }
  const place = random.pick(places);
  return { who: place[2], request: { url: CONSUME_URL, ...consumptionItem(random, place) } };
}

/**
 * One random move of the spec (or a mint), inside Alpha District, where its owner manages everything; with
 * `consumption`, a consumption by the classroom product about one time in six, single or a batch.
 */
export function randomMove(
  random: Random,
  world: World,
  options: { consumption?: boolean; tenants?: TwoTenants } = {},
): { who: Who; request: MoveRequest } {
  if (options.consumption && random.chance(1 / 6)) return randomConsumption(random, world, options.tenants);
  if (options.tenants && random.chance(1 / 5)) return randomTwoTenantMove(random, world, options.tenants);
  const { alpha, schoolA, annex, schoolB } = world.orgs;
  const orgs = [alpha, schoolA, annex, schoolB];
  const pool = () => random.pick(['shared', 'protected'] as const);
  const amount = 1 + random.int(random.chance(0.2) ? 600 : 120);
  const twoOf = <T>(items: readonly T[]): [T, T] => {
    const first = random.pick(items);
    const rest = items.filter((i) => i !== first);
    return [first, random.pick(rest)];
  };
  switch (random.int(8)) {
    case 0: {
      const [fromPool, toPool] = twoOf(['shared', 'protected'] as const);
      return {
        who: 'owner',
        request: {
          url: '/api/credit/transfer/pools',
          body: { amount, organizationId: random.pick(orgs), fromPool, toPool },
        },
      };
    }
    case 1: {
      const down = random.chance(0.7)
        ? { source: alpha, targets: subset(random, [schoolA, annex, schoolB]) }
        : { source: schoolA, targets: [annex] };
      return {
        who: 'owner',
        request: {
          url: '/api/credit/assign/organizations',
          body: {
            amount,
            sourceOrganizationId: down.source,
            fromOrganizationPoolType: pool(),
            targetOrganizationIds: down.targets,
            toOrganizationPoolType: pool(),
          },
        },
      };
    }
    case 2: {
      const up = random.chance(0.7)
        ? { target: alpha, sources: subset(random, [schoolA, annex, schoolB]) }
        : { target: schoolA, sources: [annex] };
      return {
        who: 'owner',
        request: {
          url: '/api/credit/reclaim/organizations',
          body: {
            amount,
            sourceOrganizationIds: up.sources,
            reclaimFromStrategy: random.pick<ReclaimStrategy>([
              'shared',
              'protected',
              'shared_first',
              'protected_first',
            ]),
            targetOrganizationId: up.target,
            toOrganizationPoolType: pool(),
          },
        },
      };
    }
    case 3: {
      const [source, target] = twoOf(orgs);
      return {
        who: 'owner',
        request: {
          url: '/api/credit/transfer/organizations',
          body: {
            amount,
            sourceOrganizationId: source,
            fromOrganizationPoolType: pool(),
            targetOrganizationId: target,
            toOrganizationPoolType: pool(),
          },
        },
      };
    }
    case 4:
    case 5: {
      const inSchool = random.chance(0.6);
      const organizationId = inSchool ? schoolA : alpha;
      const userIds = subset(
        random,
        inSchool
          ? [world.users.teacher.id, world.users.schoolAdmin.id]
          : [world.users.admin.id, world.users.owner.id],
      );
      return random.int(2) === 0
        ? {
            who: 'owner',
            request: {
              url: '/api/credit/assign/users',
              body: { amount, userIds, organizationId, fromOrganizationPoolType: pool() },
            },
          }
        : {
            who: 'owner',
            request: {
              url: '/api/credit/reclaim/users',
              body: { amount, userIds, organizationId, toOrganizationPoolType: pool() },
            },
          };
    }
    case 6: {
      // Between two members of one organization; the body names it or not (they share only that one).
      const [organizationId, people] = random.pick([
        [schoolA, [world.users.teacher.id, world.users.schoolAdmin.id]],
        [alpha, [world.users.admin.id, world.users.owner.id]],
      ] as const);
      const [sourceUserId, targetUserId] = twoOf(people);
      return {
        who: 'owner',
        request: {
          url: '/api/credit/transfer/users',
          body: { amount, sourceUserId, targetUserId, ...(random.chance(0.5) ? { organizationId } : {}) },
          organizationId,
        },
      };
    }
    default:
      return {
        who: 'systemAdmin',
        request: {
          url: '/api/credit/allocate/system',
          body: {
            amount: 1 + random.int(400),
            organizationId: random.pick(orgs),
            toPool: pool(),
            description: 'Workload mint',
          },
        },
      };
  }
}

/**
 * A move of Sol's or Bea's credits (`TwoTenants`): Beta's owner gives, takes back and moves between them inside
 * Beta Network, the system admin mints into Beta, Alpha's owner gives Sol credits of Alpha School B and takes
 * them back.
 */
function randomTwoTenantMove(
  random: Random,
  world: World,
  tenants: TwoTenants,
): { who: Who; request: MoveRequest } {
  const { beta, schoolB } = world.orgs;
  const pool = () => random.pick(['shared', 'protected'] as const);
  const amount = 1 + random.int(random.chance(0.2) ? 400 : 80);
  const inBeta = random.pick([[tenants.sol.id], [tenants.bea.id], [tenants.sol.id, tenants.bea.id]]);
  switch (random.int(6)) {
    case 0:
      return {
        who: 'betaOwner',
        request: {
          url: '/api/credit/assign/users',
          body: { amount, userIds: inBeta, organizationId: beta, fromOrganizationPoolType: pool() },
        },
      };
    case 1:
      return {
        who: 'betaOwner',
        request: {
          url: '/api/credit/reclaim/users',
          body: { amount, userIds: inBeta, organizationId: beta, toOrganizationPoolType: pool() },
        },
      };
    case 2: {
      const [sourceUserId, targetUserId] = random.chance(0.5)
        ? [tenants.sol.id, tenants.bea.id]
        : [tenants.bea.id, tenants.sol.id];
      return {
        who: 'betaOwner',
        request: {
          url: '/api/credit/transfer/users',
          body: {
            amount,
            sourceUserId,
            targetUserId,
            ...(random.chance(0.5) ? { organizationId: beta } : {}),
          },
          organizationId: beta,
        },
      };
    }
    case 3:
      return {
        who: 'systemAdmin',
        request: {
          url: '/api/credit/allocate/system',
          body: {
            amount: 1 + random.int(400),
            organizationId: beta,
            toPool: pool(),
            description: 'Beta mint',
          },
        },
      };
    default:
      return {
        who: 'owner',
        request:
          random.int(2) === 0
            ? {
                url: '/api/credit/assign/users',
                body: {
                  amount,
                  userIds: [tenants.sol.id],
                  organizationId: schoolB,
                  fromOrganizationPoolType: pool(),
                },
              }
            : {
                url: '/api/credit/reclaim/users',
                body: {
                  amount,
                  userIds: [tenants.sol.id],
                  organizationId: schoolB,
                  toOrganizationPoolType: pool(),
                },
              },
      };
  }
}

/** Journal transactions after `afterSeq` whose lines touch the accounts of organizations of two tenants. */
async function transactionsAcrossTenants(db: Tx, afterSeq: number): Promise<string[]> {
  const found = await rows<{ id: string }>(
    db,
    sql`select t.id from credit_transactions t
        join credit_entries e on e.transaction_id = t.id
        join credit_accounts a on a.id = e.account_id
        join organization_closure c on c.descendant_id = a.organization_id
        join organizations r on r.id = c.ancestor_id and r.parent_id is null
        where t.seq > ${afterSeq}
        group by t.id having count(distinct r.id) > 1`,
  );
  return found.map((r) => r.id);
}

export interface WorkloadReport {
  moves: number;
  applied: number;
  refused: number;
  replays: number;
  reusedKeys: number;
  /** Consumptions applied (with `consumption`), single or in batches. */
  consumed: number;
  /** Batches of consumptions answered. */
  batches: number;
  /** Consumptions applied in batches. */
  consumedInBatches: number;
}

/**
 * What ties a journal transaction to the request it answers: the transaction's id, which a move answers; for
 * a consumption, whose answer carries no id, its reference (the transaction's description).
 */
export function journalKey(entry: { id: string; action: string; description: string }): string {
  return entry.action === 'consumption' ? `consumption:${entry.description}` : entry.id;
}

/**
 * The `journalKey` of the transaction an applied request wrote; undefined when it wrote none. A batch writes
 * one for each item it applied: take it item by item (`oneByOne`).
 */
export function answeredKey(request: MoveRequest, answer: Answer): string | undefined {
  if (answer.status !== 200) return undefined;
  if (request.url === CONSUME_BATCH_URL) throw new Error('a batch is answered item by item (oneByOne)');
  return request.url === CONSUME_URL ? `consumption:${request.body.reference}` : answer.body.transactionId;
}

/** The status the single call answers for a batch item's refusal (a batch answers 200 as a whole). */
const REFUSAL_STATUS: Record<string, number> = { not_found: 404, invalid_input: 400 };

/**
 * A request with its answer, one by one: each item of an answered batch as the single consumption it stands
 * for, with the answer the single call gives (CONTRACT §9: an item answers as the single call would); any
 * other request as it is.
 */
export function oneByOne(request: MoveRequest, answer: Answer): { request: MoveRequest; answer: Answer }[] {
  if (request.url !== CONSUME_BATCH_URL || answer.status !== 200) return [{ request, answer }];
  return request.body.items.map((item, i) => {
    const result = answer.body.results?.[i];
    const place = request.places[i] as { userId: string; organizationId: string };
    return {
      request: { url: CONSUME_URL, body: item, ...place },
      answer:
        result?.status === 'consumed'
          ? {
              status: 200,
              body: { fromOwn: result.fromOwn, fromShared: result.fromShared, balances: result.balances },
            }
          : {
              status: REFUSAL_STATUS[result?.error ?? ''] ?? (result ? 422 : 500),
              body: { error: result?.error ?? 'no result for this item' },
            },
    };
  });
}

/** Another body under the same key: one credit more (a batch: in its first item). */
function changed(request: MoveRequest): MoveRequest {
  if (request.url === CONSUME_BATCH_URL) {
    const [first, ...rest] = request.body.items as [ConsumptionItem, ...ConsumptionItem[]];
    return { ...request, body: { items: [{ ...first, credits: first.credits + 1 }, ...rest] } };
  }
  return request.url === CONSUME_URL
    ? { ...request, body: { ...request.body, credits: request.body.credits + 1 } }
    : ({ ...request, body: { ...request.body, amount: request.body.amount + 1 } } as MoveRequest);
}

/**
 * A randomized concurrent workload against the API with the model as its oracle. Each round sends
 * `concurrency` moves at once (a third with an Idempotency-Key), repeats of earlier keyed requests (which
 * must answer their first answer) and one key reused with another body (`409`). After each round the
 * journal's new transactions are replayed through the model in their order: each must be the answer of
 * exactly one request of the round and write exactly the lines the model expects, with no balance below
 * zero, and touch the accounts of one tenant only (people in two tenants take part: `TwoTenants`); then every
 * balance must equal the model's, and every invariant of the ledger must hold.
 */
export async function runCreditWorkload(options: {
  send: Send;
  db: Tx;
  world: World;
  seed: number;
  rounds: number;
  concurrency: number;
  /** Consumptions by the classroom product among the moves (`who: 'integration'`), single and batches. */
  consumption?: boolean;
  /** Called with a message for each thing that is wrong; the run goes on. */
  fail: (message: string) => void;
}): Promise<WorkloadReport> {
  const { send, db, world, fail } = options;
  const random = seededRandom(options.seed);
  const tenants = await twoTenants(db, world);
  const model = new LedgerModel(await balancesByKey(db));
  const keyed: Sent[] = [];
  const report: WorkloadReport = {
    moves: 0,
    applied: 0,
    refused: 0,
    replays: 0,
    reusedKeys: 0,
    consumed: 0,
    batches: 0,
    consumedInBatches: 0,
  };
  let lastSeq = Math.max(0, ...(await journalSince(db, 0)).map((t) => t.seq));
  let keyCount = 0;

  for (let round = 0; round < options.rounds; round++) {
    const fresh: Sent[] = Array.from({ length: options.concurrency }, () => {
      const move = randomMove(random, world, { consumption: options.consumption ?? false, tenants });
      // A consumption always carries a key (the call requires one); a third of the other moves do.
      const keyed = random.chance(0.33) || isConsumption(move.request);
      return keyed ? { ...move, key: `w${options.seed}-${keyCount++}` } : move;
    });
    const repeats = keyed.length > 0 ? Array.from({ length: 2 }, () => random.pick(keyed)) : [];
    const reused = keyed.length > 0 ? random.pick(keyed) : undefined;
    const [freshAnswers, repeatAnswers, reusedAnswer] = await Promise.all([
      Promise.all(fresh.map((s) => send(s.who, s.request, s.key))),
      Promise.all(repeats.map((s) => send(s.who, s.request, s.key))),
      reused ? send(reused.who, changed(reused.request), reused.key) : undefined,
    ]);
    fresh.forEach((s, i) => {
      s.answer = freshAnswers[i];
    });

    report.moves += fresh.length;
    repeats.forEach((first, i) => {
      report.replays++;
      const again = repeatAnswers[i];
      if (
        again?.status !== first.answer?.status ||
        JSON.stringify(again?.body) !== JSON.stringify(first.answer?.body)
      ) {
        fail(
          `round ${round}: a repeat of key ${first.key} answered ${JSON.stringify(again)}, first ${JSON.stringify(first.answer)}`,
        );
      }
    });
    if (reusedAnswer) {
      report.reusedKeys++;
      if (reusedAnswer.status !== 409 || reusedAnswer.body.error !== 'idempotency_key_reused') {
        fail(`round ${round}: a key reused with another body answered ${JSON.stringify(reusedAnswer)}`);
      }
    }

    const byTransaction = new Map<string, { request: MoveRequest; answer: Answer }>();
    for (const s of fresh) {
      const inBatch = s.request.url === CONSUME_BATCH_URL;
      if (inBatch && s.answer?.status === 200) report.batches++;
      for (const one of oneByOne(s.request, s.answer as Answer)) {
        const { request, answer } = one;
        const applied = answeredKey(request, answer);
        if (applied) {
          if (byTransaction.has(applied)) fail(`round ${round}: two requests answered one transaction`);
          byTransaction.set(applied, one);
          report.applied++;
          if (request.url === CONSUME_URL) report.consumed++;
          if (inBatch) report.consumedInBatches++;
        } else if (answer.status === 422 && answer.body.error === 'insufficient_credits') {
          report.refused++;
        } else {
          fail(
            `round ${round}: ${request.url}${inBatch ? ' (in a batch)' : ''} ${JSON.stringify(request.body)} answered ${answer.status} ${JSON.stringify(answer.body)}`,
          );
        }
      }
      if (s.key) keyed.push(s);
    }

    for (const crossing of await transactionsAcrossTenants(db, lastSeq)) {
      fail(`round ${round}: journal transaction ${crossing} moved credits between two tenants`);
    }
    const journal = await journalSince(db, lastSeq);
    if (journal.length !== byTransaction.size) {
      fail(
        `round ${round}: the journal has ${journal.length} new transactions for ${byTransaction.size} applied moves`,
      );
    }
    for (const entry of journal) {
      lastSeq = entry.seq;
      const sent = byTransaction.get(journalKey(entry));
      if (!sent) {
        fail(`round ${round}: journal transaction ${entry.id} is no request's answer`);
        continue;
      }
      const expected = model.linesOf(sent.request);
      if (!expected) {
        fail(
          `round ${round}: the model refuses ${sent.request.url} ${JSON.stringify(sent.request.body)}, the server applied it`,
        );
        model.apply(entry.lines);
        continue;
      }
      const [got, want] = [normalized(entry.lines), normalized(expected)];
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        fail(
          `round ${round}: ${sent.request.url} wrote ${got.join('; ')}, the model expects ${want.join('; ')}`,
        );
      }
      model.apply(expected);
      if (sent.request.url === CONSUME_URL) {
        // The answer's split and balances after are the model's at that point of the journal (the posting
        // holds both accounts, so no later entry on them comes before it).
        const { body } = sent.answer as Answer;
        const [own, shared] = [
          memberKey(sent.request.userId, sent.request.organizationId),
          `shared:${sent.request.organizationId}`,
        ];
        const want = {
          fromOwn: -(expected.find((l) => l.key === own)?.amount ?? 0),
          fromShared: -(expected.find((l) => l.key === shared)?.amount ?? 0),
          balances: { own: model.balances.get(own) ?? 0, shared: model.balances.get(shared) ?? 0 },
        };
        const got = { fromOwn: body.fromOwn, fromShared: body.fromShared, balances: body.balances };
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          fail(
            `round ${round}: consumption answered ${JSON.stringify(got)}, the model ${JSON.stringify(want)}`,
          );
        }
      }
    }

    const actual = await balancesByKey(db);
    for (const [key, balance] of actual) {
      if ((model.balances.get(key) ?? 0) !== balance) {
        fail(`round ${round}: ${key} holds ${balance}, the model ${model.balances.get(key) ?? 0}`);
      }
    }
    for (const violation of await ledgerViolations(db)) fail(`round ${round}: ${violation}`);
    for (const violation of await conservationViolations(db)) fail(`round ${round}: ${violation}`);
  }
  return report;
}
