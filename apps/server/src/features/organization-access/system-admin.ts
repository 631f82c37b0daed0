import type { Tx } from '../../db/client';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { requireOrganizationAccess } from './access';

/**
 * The one check of what only system admins may do. Acting on an organization (`organizationId`): `404` for one
 * the caller cannot see, then `403` with `message` for one it can, so that the refusal tells nothing of
 * organizations outside the caller's tree. Without one: `403` with `message`.
 */
export async function requireSystemAdmin(
  db: Tx,
  user: AuthUser,
  refusal: { message?: string; organizationId?: string } = {},
): Promise<void> {
  if (user.isSystemAdmin) return;
  if (refusal.organizationId) await requireOrganizationAccess(db, user, refusal.organizationId);
  throw AppError.forbidden(refusal.message);
}
