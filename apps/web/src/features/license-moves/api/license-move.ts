import type { LicenseMoveResponse } from '@allot/domain/licenses';
import type { QueryKey } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-error';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** A move and its `Idempotency-Key`: the same key and body move the seats once, however often sent. */
export interface LicenceMoveVariables<T> {
  input: T;
  idempotencyKey: string;
}

export const withKey = (idempotencyKey: string) => ({ headers: { 'Idempotency-Key': idempotencyKey } });

/**
 * After seats moved between an organization and organizations below it: the licences (seats held and in
 * use) of every organization concerned, in their details, and the upper one's sub-organizations list. The
 * seats show nowhere else (not in the picker, the searches or the members lists), so nothing else is marked.
 * Resolves when what is on screen is fetched again, so the dialog closes on the new figures.
 */
export function invalidateAfterLicenceMove(
  answer: LicenseMoveResponse,
  upperId: string,
  lowerIds: readonly string[],
): Promise<void> {
  return invalidateSeatsOf(upperId, [...lowerIds, ...answer.licenses.map((l) => l.organizationId)]);
}

/**
 * After a refusal of the seats (`422`: somebody moved or used seats since the screen was read): the same
 * figures, fetched again, so the open dialog shows what is there now. Not awaited: the dialog stays open.
 */
export function refetchAfterRefusal(error: unknown, upperId: string, lowerIds: readonly string[]): void {
  if (isApiError(error) && error.status === 422) void invalidateSeatsOf(upperId, lowerIds);
}

function invalidateSeatsOf(upperId: string, lowerIds: readonly string[]): Promise<void> {
  const ids = new Set([upperId, ...lowerIds]);
  const keys: QueryKey[] = [
    ...[...ids].map((id) => queryKeys.organizations.detail(id)),
    queryKeys.organizations.subOrganizationsOf(upperId),
  ];
  return invalidate(keys);
}
