const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Is this an id the database could hold? Checked before a query, so a malformed id is a miss, not an SQL error. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
