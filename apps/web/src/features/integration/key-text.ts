/**
 * How the list shows a key it no longer has: the first characters the server kept (`prefix`, "allot_sk_"
 * and six more) and an ellipsis, so that no one mistakes it for a whole key.
 */
export function shownKey(prefix: string): string {
  return `${prefix}…`;
}
