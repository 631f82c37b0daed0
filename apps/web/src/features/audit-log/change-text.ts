import { formatCount } from '../../lib/format';

/** "maxUsers" → "max users", "licence_type" → "licence type": a field's name in words. */
export function fieldLabel(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}

/** A value in words: numbers with separators, ISO dates as days, nothing as "—", lists joined. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number') return formatCount(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(value)) return value.slice(0, 10);
    return value.replace(/_/g, ' ');
  }
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  return JSON.stringify(value);
}

/**
 * An entry's change, one line per field: "role: admin → user"; a creation lists what it was created with
 * ("name: Maple"), a removal what it had ("name: Maple → —").
 */
export function changeLines(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys.map((key) => {
    const label = fieldLabel(key);
    if (!before) return `${label}: ${valueText(after?.[key])}`;
    if (!after) return `${label}: ${valueText(before[key])} → —`;
    return `${label}: ${valueText(before[key])} → ${valueText(after[key])}`;
  });
}
