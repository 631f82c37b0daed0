import type { CreditAlertSettings } from '@allot/domain/insights';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rows } from '../../src/db/rows';
import { mailsTo } from '../support/outbox';
import { bearer, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/** The calls the low-balance alert tests make, as the district's owner unless told. */
export function alertCalls(t: TestApp) {
  const token = (userId = t.world.users.owner.id) => sessionFor(t.db, userId);
  return {
    async get(organizationId: string, userId?: string) {
      return t.app.inject({
        method: 'GET',
        url: `/api/organization/${organizationId}/credit-alerts`,
        headers: bearer(await token(userId)),
      });
    },
    async put(organizationId: string, payload: unknown, userId?: string) {
      return t.app.inject({
        method: 'PUT',
        url: `/api/organization/${organizationId}/credit-alerts`,
        headers: bearer(await token(userId)),
        payload: payload as object,
      });
    },
    async settings(organizationId: string, thresholds: unknown[]): Promise<CreditAlertSettings> {
      const response = await this.put(organizationId, { thresholds });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<CreditAlertSettings>();
    },
    /** Moves credits between the organization's two pools through the API (a posting of the journal). */
    async move(organizationId: string, amount: number, fromPool: 'shared' | 'protected') {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/credit/transfer/pools',
        headers: bearer(await token()),
        payload: { organizationId, amount, fromPool, toPool: fromPool === 'shared' ? 'protected' : 'shared' },
      });
      return response;
    },
    async debit(organizationId: string, amount: number) {
      const response = await this.move(organizationId, amount, 'shared');
      expect(response.statusCode, response.body).toBe(200);
    },
    async topUp(organizationId: string, amount: number) {
      const response = await this.move(organizationId, amount, 'protected');
      expect(response.statusCode, response.body).toBe(200);
    },
    async sharedPool(organizationId: string) {
      const [row] = await rows<{ shared: string }>(
        t.db,
        sql`select shared_credits::text as shared from organizations where id = ${organizationId}`,
      );
      return Number(row?.shared);
    },
    /** The low-balance alert mails in the outbox to an address, oldest first. */
    async alertMails(email: string) {
      return (await mailsTo(t.db, email)).filter((m) => m.kind === 'credit_alert');
    },
  };
}
