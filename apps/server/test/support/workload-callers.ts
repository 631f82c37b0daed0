import type { Send, Who } from './credit-workload';
import { insertIntegrationKey } from './integration';
import { bearer, type TestApp } from './test-app';
import { sessionFor } from './world';

export interface WorkloadCallers {
  /** The owners' (Alpha's, Beta's) and the system admin's sessions, and Alpha's and Beta's integration keys. */
  tokens: Record<Who, string>;
  /** A workload's request through `app.inject`, with its Idempotency-Key when it has one. */
  send: Send;
}

/** Who sends a credit workload's requests to an in-process test app. */
export async function workloadCallers(t: TestApp): Promise<WorkloadCallers> {
  const tokens: Record<Who, string> = {
    owner: await sessionFor(t.db, t.world.users.owner.id),
    systemAdmin: await sessionFor(t.db, t.world.users.systemAdmin.id),
    integration: (await insertIntegrationKey(t.db, t.world.orgs.alpha)).key,
    betaOwner: await sessionFor(t.db, t.world.users.betaOwner.id),
    betaIntegration: (await insertIntegrationKey(t.db, t.world.orgs.beta)).key,
  };
  const send: Send = async (who, request, key) => {
    const response = await t.app.inject({
      method: 'POST',
      url: request.url,
      headers: { ...bearer(tokens[who]), ...(key ? { 'idempotency-key': key } : {}) },
      payload: request.body,
    });
    return { status: response.statusCode, body: response.json() };
  };
  return { tokens, send };
}
