/**
 * The cursor of a log read by sequence number (the credit log, the licence log): the number of the last
 * entry shown, opaque to the client. A token that is not one of ours is a `400` on `pageToken`.
 */
export function encodeCursor(seq: string): string {
  return Buffer.from(`s${seq}`).toString('base64url');
}

export function decodeCursor(token: string | undefined, invalid: () => Error): string | null {
  if (!token) return null;
  const match = /^s(\d{1,18})$/.exec(Buffer.from(token, 'base64url').toString());
  if (!match?.[1]) throw invalid();
  return match[1];
}
