import { useMemo, useRef } from 'react';
import { isApiError } from './api-error';

/** A new `Idempotency-Key`: a random UUID (CONTRACT §5 allows 1–255 printable characters). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context (plain http on another host) randomUUID is missing; the same 122 random bits.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The `Idempotency-Key` of a dialog's submission. The same content sent again (a double click, a retry after
 * a lost answer) keeps its key, so the server applies it once; changed content gets a new key. After
 * a definite refusal (4xx: nothing moved, and the server keeps that refusal as the key's answer) the next
 * attempt gets a new key too, so that it is decided afresh; after a lost answer (network, 5xx) the key is
 * kept, because the first attempt may have been applied.
 */
export function useIdempotencyKey() {
  const last = useRef<{ content: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor(body: unknown): string {
        const content = JSON.stringify(body);
        if (last.current?.content !== content) last.current = { content, key: newIdempotencyKey() };
        return last.current.key;
      },
      /** Called with the error of a failed attempt. */
      failed(error: unknown): void {
        if (isApiError(error) && error.status >= 400 && error.status < 500) last.current = null;
      },
    }),
    [],
  );
}
