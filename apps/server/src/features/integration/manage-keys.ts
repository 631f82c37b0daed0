import { randomBytes } from 'node:crypto';
import {
  type CreatedIntegrationKey,
  type CreateIntegrationKeyRequest,
  INTEGRATION_KEY_PREFIX,
  INTEGRATION_KEY_SHOWN_LENGTH,
  type IntegrationKey,
} from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { recordAudit } from '../audit';
import { lockOrganization, requireOrganizationAccess } from '../organization-access';
import { hashIntegrationKey } from './key-auth';

/**
 * An organization's integration keys (CONTRACT §9): list, create (the key shown once, only its SHA-256
 * kept), revoke. Each needs `manage_org_integration` on the organization: `404` when the caller cannot see
 * it, `403` when it sees it without the permission.
 */

const PERMISSION = ['manage_org_integration'] as const;

/** Live keys an organization may hold at once: enough for every classroom deployment and a rotation. */
export const MAX_LIVE_INTEGRATION_KEYS = 20;

export const KEY_MSG = {
  tooManyKeys: `This organization already has ${MAX_LIVE_INTEGRATION_KEYS} integration keys. Revoke one it no longer uses before creating another.`,
} as const;

/** `allot_sk_` and 32 random bytes, base64url (43 characters): 256 bits that no one guesses. */
function newKey(): string {
  return `${INTEGRATION_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

type Stamp = string | Date;
const iso = (value: Stamp) => new Date(value).toISOString();

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  created_by_id: string | null;
  created_by_name: string | null;
  created_at: Stamp;
  last_used_at: Stamp | null;
}

/** The live keys of exactly this organization (not of those below it), newest first; never a key or hash. */
export async function listIntegrationKeys(
  db: Db,
  user: AuthUser,
  organizationId: string,
): Promise<IntegrationKey[]> {
  await requireOrganizationAccess(db, user, organizationId, PERMISSION);
  const found = await rows<KeyRow>(
    db,
    sql`select k.id, k.name, k.prefix, u.id as created_by_id, u.name as created_by_name, k.created_at,
          k.last_used_at
        from integration_keys k left join users u on u.id = k.created_by
        where k.organization_id = ${organizationId} and k.revoked_at is null
        order by k.created_at desc, k.id desc`,
  );
  return found.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdBy: r.created_by_id ? { id: r.created_by_id, name: r.created_by_name ?? '' } : null,
    createdAt: iso(r.created_at),
    lastUsedAt: r.last_used_at ? iso(r.last_used_at) : null,
  }));
}

/**
 * A new key of the organization. The answer is the only time the key is seen: the database keeps its hash
 * and its first characters. The organization's row is locked while the live keys are counted, so two
 * creations at once cannot pass the cap together (and the organization cannot be deleted meanwhile).
 */
export async function createIntegrationKey(
  tx: Tx,
  user: AuthUser,
  organizationId: string,
  input: CreateIntegrationKeyRequest,
): Promise<CreatedIntegrationKey> {
  const key = newKey();
  await requireOrganizationAccess(tx, user, organizationId, PERMISSION);
  await lockOrganization(tx, organizationId, 'update');
  const [live] = await rows<{ count: number }>(
    tx,
    sql`select count(*)::int as count from integration_keys
        where organization_id = ${organizationId} and revoked_at is null`,
  );
  if ((live?.count ?? 0) >= MAX_LIVE_INTEGRATION_KEYS)
    throw AppError.of('business_rule', KEY_MSG.tooManyKeys);
  const [created] = await rows<{ id: string; created_at: Stamp }>(
    tx,
    sql`insert into integration_keys (organization_id, name, prefix, key_hash, created_by)
        values (${organizationId}, ${input.name}, ${key.slice(0, INTEGRATION_KEY_SHOWN_LENGTH)},
          ${hashIntegrationKey(key)}, ${user.userId})
        returning id, created_at`,
  );
  if (!created) throw new Error('integration key insert returned nothing');
  await recordAudit(tx, {
    organizationId,
    actorId: user.userId,
    action: 'integration_key_created',
    target: { type: 'integration_key', id: created.id, label: input.name },
    after: { name: input.name, prefix: key.slice(0, INTEGRATION_KEY_SHOWN_LENGTH) },
  });
  return {
    id: created.id,
    name: input.name,
    prefix: key.slice(0, INTEGRATION_KEY_SHOWN_LENGTH),
    key,
    createdAt: iso(created.created_at),
  };
}

/**
 * Revokes a live key of the organization. The next request with it is refused, on every server process:
 * authentication reads the key from the database on each request (key-auth.ts). A key of another
 * organization, an unknown one or one already revoked: `404`.
 */
export async function revokeIntegrationKey(
  tx: Tx,
  user: AuthUser,
  organizationId: string,
  keyId: string,
): Promise<{ success: true }> {
  await requireOrganizationAccess(tx, user, organizationId, PERMISSION);
  if (!isUuid(keyId)) throw AppError.notFound();
  const [revoked] = await rows<{ id: string; name: string; prefix: string }>(
    tx,
    sql`update integration_keys set revoked_at = now(), revoked_by = ${user.userId}
        where id = ${keyId} and organization_id = ${organizationId} and revoked_at is null
        returning id, name, prefix`,
  );
  if (!revoked) throw AppError.notFound();
  await recordAudit(tx, {
    organizationId,
    actorId: user.userId,
    action: 'integration_key_revoked',
    target: { type: 'integration_key', id: revoked.id, label: revoked.name },
    before: { name: revoked.name, prefix: revoked.prefix },
  });
  return { success: true as const };
}
