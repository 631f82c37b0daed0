import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPerson,
  createSchool,
  insertIntegrationKey,
  join,
  licence,
  mint,
} from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/** GET /api/metrics (issue 35): Prometheus's text, only with METRICS_TOKEN, counting what happened. */
const TOKEN = 'metrics-token-for-the-test';
let t: TestApp;
let off: TestApp;
beforeAll(async () => {
  t = await createTestApp({ metricsToken: TOKEN, pruning: { firstRunMs: 0, intervalMs: 3_600_000 } });
  off = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await off.close();
});

const scrape = (app: TestApp, token?: string) =>
  app.app.inject({ method: 'GET', url: '/api/metrics', headers: token ? bearer(token) : {} });

/** The value of a series, its labels written as Prometheus writes them (in the order they were declared). */
function seriesValue(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics', () => {
  it('are off without METRICS_TOKEN, and need that token as the bearer', async () => {
    expect((await scrape(off)).statusCode).toBe(404);
    expect((await scrape(off, TOKEN)).statusCode).toBe(404);
    expect((await scrape(t)).statusCode).toBe(401);
    expect((await scrape(t, 'another-token')).statusCode).toBe(401);
    // A session token is no metrics token either.
    expect((await scrape(t, await sessionFor(t.db, t.world.users.systemAdmin.id))).statusCode).toBe(401);
    const answer = await scrape(t, TOKEN);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('say how many server processes answered and how many there should be: one of one here', async () => {
    // With WEB_CONCURRENCY, fewer answered than expected while one starts (test/server-processes.test.ts).
    const text = (await scrape(t, TOKEN)).body;
    expect(seriesValue(text, 'allot_metrics_processes_answered')).toBe(1);
    expect(seriesValue(text, 'allot_metrics_processes_expected')).toBe(1);
    expect(seriesValue(text, 'allot_server_processes')).toBe(1);
    expect(text).toContain('# TYPE allot_metrics_processes_answered gauge');
  });

  it('count requests by route and status, postings, consumptions by outcome, the outbox and the jobs', async () => {
    const before = (await scrape(t, TOKEN)).body;
    const healthSeries = 'allot_http_requests_total{method="GET",route="/api/health",status="200"}';
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/health' });

    // A consumption from a teacher's own credits, and one refused for want of them.
    const org = await createSchool(t.db, 'Metrics School', t.world.orgs.alpha);
    const tia = await createPerson(t.db, 'tia@metrics.test');
    await join(t.db, tia.id, org, await licence(t.db, org));
    await mint(t.db, { userId: tia.id }, 10);
    const key = await insertIntegrationKey(t.db, t.world.orgs.alpha);
    const consume = (credits: number, idempotencyKey: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/integration/consume',
        headers: { ...bearer(key.key), 'idempotency-key': idempotencyKey },
        payload: { email: 'tia@metrics.test', credits, reference: idempotencyKey },
      });
    expect((await consume(4, 'metrics-1')).statusCode).toBe(200);
    expect((await consume(400, 'metrics-2')).statusCode).toBe(422);
    // A repeat answers the first answer: nothing happened again, nothing is counted again.
    expect((await consume(4, 'metrics-1')).headers['idempotent-replayed']).toBe('true');

    const after = (await scrape(t, TOKEN)).body;
    const grew = (series: string) => seriesValue(after, series) - seriesValue(before, series);
    expect(grew(healthSeries)).toBe(3);
    expect(grew('allot_consumptions_total{outcome="consumed"}')).toBe(1);
    expect(grew('allot_consumptions_total{outcome="insufficient_credits"}')).toBe(1);
    // The minting and the consumption went through the journal.
    expect(grew('allot_ledger_postings_total{action="consumption"}')).toBe(1);
    expect(
      grew('allot_http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}'),
    ).toBe(3);
    expect(after).toMatch(/^allot_mail_outbox_pending \d+$/m);
    expect(after).toMatch(/^allot_mail_outbox_oldest_seconds [\d.e+-]+$/m);
    expect(after).toContain('allot_job_last_run_timestamp_seconds{job="pruning"}');
    expect(after).toMatch(/^process_cpu_user_seconds_total /m);
  });
});
