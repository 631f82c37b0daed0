/**
 * Location state of the links to Home from inside the app (menu, header brand, breadcrumb).
 * Home opens the only organization of a user who has exactly one (spec §4) — except when the person
 * asked for the picker through one of these links. See apps/web/README.md.
 */
export const PICKER_STATE = { picker: true } as const;

export function askedForPicker(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { picker?: unknown }).picker === true;
}
