import type { UpTreeRequest } from '@allot/domain/requests';
import type { QueryKey } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-error';
import { invalidate } from '../../../lib/query-client';
import { balanceViews, queryKeys } from '../../../lib/query-keys';

/** A request as a mutation knows it: the two organizations it is between and what it asks for. */
export type RequestRef = Pick<UpTreeRequest, 'id' | 'kind' | 'organization' | 'parentOrganization'>;

/**
 * What a request's change shows in: the lists and the "above" answers (the menu's count, the free seats) of
 * both organizations, and their audit logs (every change is audited).
 */
function requestViews(request: RequestRef): QueryKey[] {
  return [
    queryKeys.requests.of(request.organization.id),
    queryKeys.requests.of(request.parentOrganization.id),
    queryKeys.auditLog.of(request.organization.id),
    queryKeys.auditLog.of(request.parentOrganization.id),
  ];
}

/**
 * After an approval the allocation happened too: credits show wherever a balance does (decision 006, "After a
 * move"); seats in both organizations' licences and the upper one's sub-organizations list. Resolves once
 * what is on screen is fetched again, so that the dialog closes on the new figures.
 */
export function invalidateAfterApproval(request: RequestRef): Promise<void> {
  const allocation =
    request.kind === 'credits'
      ? balanceViews()
      : [
          queryKeys.organizations.detail(request.organization.id),
          queryKeys.organizations.detail(request.parentOrganization.id),
          queryKeys.organizations.subOrganizationsOf(request.parentOrganization.id),
        ];
  return invalidate([...requestViews(request), ...allocation]);
}

/** After a request was made, declined or cancelled: nothing moved, only the requests and the audit logs. */
export function invalidateRequest(request: RequestRef): Promise<void> {
  return invalidate(requestViews(request));
}

/**
 * A refusal because the request is no longer open (`409`: decided or cancelled meanwhile, in another tab or
 * by another admin): the lists are fetched again, so that the screen behind the dialog shows what happened.
 * A refusal of the balances (`422`) fetches them again, so that the dialog shows what is there now.
 */
export function refetchAfterRefusal(error: unknown, request: RequestRef): void {
  if (!isApiError(error)) return;
  if (error.status === 409) void invalidateRequest(request);
  if (error.status === 422 && request.kind === 'credits') void invalidate(balanceViews());
  if (error.status === 422 && request.kind === 'seats') void invalidateAfterApproval(request);
}
