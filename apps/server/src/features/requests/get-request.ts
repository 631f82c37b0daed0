import type { UpTreeRequest } from '@allot/domain/requests';
import { hasPanelAccess } from '@allot/domain/roles';
import type { Db } from '../../db/client';
import type { AuthUser } from '../../http/authenticate';
import { findVisibleRequest } from './request-access';
import { readRequest } from './request-rows';

/**
 * GET /api/request/{id}: one request, for whoever manages either side (`404` for everyone else, as for an id of
 * nothing). The link of a request's mail opens it (issue 33). People are named as the lists name them: as the
 * organization asked sees them when the caller manages it (roles reach down, so that is the wider view), else as
 * the asking organization does.
 */
export async function getRequest(db: Db, user: AuthUser, id: string): Promise<UpTreeRequest> {
  const { request, sides } = await findVisibleRequest(db, user, id);
  const viewer = hasPanelAccess(sides.parent) ? request.parentOrganizationId : request.organizationId;
  return readRequest(db, request.id, viewer);
}
