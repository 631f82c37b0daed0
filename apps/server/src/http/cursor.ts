import { AppError } from './app-error';

/**
 * The cursor of a log read by sequence number (the credit log, the licence log): the number of the last
 * entry shown, opaque to the client. A token that is not one of ours is a `400` on `pageToken`.
 */
const INVALID_TOKEN = 'This page token is not valid. Start again from the first page.';

export function decodePageToken(token: string | undefined): string | null {
  if (!token) return null;
  const match = /^s(\d{1,18})$/.exec(Buffer.from(token, 'base64url').toString());
  if (!match?.[1]) throw AppError.invalid({ pageToken: INVALID_TOKEN }, INVALID_TOKEN);
  return match[1];
}

/**
 * A page of a log read with `limit + 1` rows (newest first): the rows to show and the pagination, whose
 * `nextPageToken` continues after the last one shown.
 */
export function cursorPage<R extends { seq: string }>(found: readonly R[], limit: number) {
  const page = found.slice(0, limit);
  const hasNext = found.length > limit;
  const last = page.at(-1);
  return {
    page,
    pagination: {
      limit,
      hasNext,
      nextPageToken: hasNext && last ? Buffer.from(`s${last.seq}`).toString('base64url') : null,
    },
  };
}
