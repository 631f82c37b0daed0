import fc from 'fast-check';
import type { JsonSchema, Operation } from './openapi-operations';

/** What makes a generated request reach deep into a service: ids and addresses that exist. */
export interface Known {
  ids: string[];
  emails: string[];
}

export interface FuzzRequest {
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Text no person types and some attackers do: NUL, broken surrogates, direction marks, injections. */
const oddText = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\udbff\udfff',
  '🌞 Sunny',
  '\u202eevil\u202c',
  '\ufeff',
  '%00',
  "' or 1=1 --",
  '"; drop table users; --',
  '<script>alert(1)</script>',
  '$' + '{7*7}{{7*7}}',
  '../../etc/passwd',
  "=cmd|' /C calc'!A0",
  ' ',
  '',
);
const hugeText = fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n));
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(1e308),
  fc.constant(-1),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

const isIdName = (name: string) => /(^id$|Id$|Ids$)/.test(name);

/** A value that fits the schema, chosen the way a client of this API would (ids and emails that exist). */
function fitting(schema: JsonSchema, name: string, known: Known, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => fitting(s, name, known, depth)));
  if (schema.allOf?.[0]) return fitting(schema.allOf[0], name, known, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -5, max: Math.min(schema.maximum ?? 1_000, 1_000_000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -5, max: schema.maximum ?? 1_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(fitting(schema.items ?? {}, name, known, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 5, 5)),
      });
    case 'object': {
      if (depth > 4 || !schema.properties) return fc.constant({});
      const shape = Object.fromEntries(
        Object.entries(schema.properties).map(([key, s]) => [key, fitting(s, key, known, depth + 1)]),
      );
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((k) => k in shape) });
    }
    default:
      return fittingText(schema, name, known);
  }
}

function fittingText(schema: JsonSchema, name: string, known: Known): fc.Arbitrary<string> {
  if (isIdName(name))
    return fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...known.ids) },
      { weight: 1, arbitrary: fc.uuid() },
    );
  if (/email/i.test(name)) {
    const fresh = fc.stringMatching(/^[a-z][a-z0-9.]{0,12}$/).map((local) => `${local}@fuzz.test`);
    return fc.oneof(fc.constantFrom(...known.emails), fresh);
  }
  if (name === 'page' || name === 'limit') return fc.integer({ min: 1, max: 30 }).map(String);
  if (name === 'search') return fc.constantFrom('', 'a', 'Alpha', 'school', 'Beta', 'owner@', '%_');
  if (/password/i.test(name)) return fc.string({ minLength: 10, maxLength: 30 });
  if (/code/i.test(name)) return fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0'));
  if (/phone/i.test(name)) return fc.constantFrom('+1 555 000 1234', '555-010-2000');
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
}

/** A value that mostly fits and sometimes is anything but what the schema wants. */
function anyValue(schema: JsonSchema, name: string, known: Known): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: fitting(schema, name, known) },
    { weight: 2, arbitrary: oddText },
    { weight: 1, arbitrary: hugeText },
    { weight: 2, arbitrary: wrongType },
  );
}

/**
 * A body of the operation's schema: all fields fitting (so that the request reaches the service), one field
 * odd, wrong or missing, or many; sometimes with keys the schema does not know.
 */
function objectBody(schema: JsonSchema, known: Known): fc.Arbitrary<string> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const fieldsWith = (spoiled: (index: number) => boolean) =>
    fc.tuple(
      ...properties.map(([key, s], index) =>
        spoiled(index)
          ? fc
              .option(anyValue(s, key, known), { nil: undefined, freq: 3 })
              .map((value) => [key, value] as const)
          : (required.has(key)
              ? fitting(s, key, known)
              : fc.option(fitting(s, key, known), { nil: undefined, freq: 2 })
            ).map((value) => [key, value] as const),
      ),
    );
  const fields = fc.oneof(
    { weight: 5, arbitrary: fieldsWith(() => false) },
    {
      weight: 4,
      arbitrary: fc.nat(Math.max(properties.length - 1, 0)).chain((bad) => fieldsWith((i) => i === bad)),
    },
    { weight: 1, arbitrary: fieldsWith(() => true) },
  );
  const extra = fc.option(
    fc.constantFrom(
      '"__proto__":{"isSystemAdmin":true}',
      '"constructor":{"prototype":{"x":1}}',
      '"role":"system_admin"',
      '"isSystemAdmin":true',
    ),
    { nil: undefined, freq: 4 },
  );
  return fc.tuple(fields, extra).map(([entries, more]) => {
    const object = Object.fromEntries(entries.filter(([, v]) => v !== undefined));
    const text = JSON.stringify(object);
    return more ? `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${more}}` : text;
  });
}

/** Bodies no schema expects: deep nesting, the wrong JSON type, broken JSON. */
const strangeBody = fc.oneof(
  fc.integer({ min: 10, max: 20_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 10, max: 20_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.constantFrom('null', '[]', '"text"', '42', 'true', '{', '{"a":}', '\u0000', '{"name":"\\ud800"}'),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
);

/** Percent-encodes anything, lone surrogates too (as the bytes a careless client would send). */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value].map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
  }
}

const segment = (known: Known) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known.ids).map(encode) },
    { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
    { weight: 2, arbitrary: oddText.map(encode) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '%E0%A4%A', 'x'.repeat(5_000), '..', 'null') },
  );

const queryValue = (schema: JsonSchema, name: string, known: Known) =>
  anyValue(schema, name, known).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')));

/**
 * A header parameter's value: for an `Idempotency-Key`, mostly a new one, sometimes one used before (a
 * repeat, or the same key with another body), odd, or none; `undefined` leaves the header out.
 */
function headerValue(header: Operation['headers'][number], known: Known): fc.Arbitrary<string | undefined> {
  if (header.name.toLowerCase() === 'idempotency-key') {
    return fc.oneof(
      { weight: 8, arbitrary: fc.uuid().map((u) => `fuzz-${u}`) },
      { weight: 2, arbitrary: fc.constantFrom('fuzz-again-1', 'fuzz-again-2') },
      { weight: 1, arbitrary: fc.constantFrom('', 'x'.repeat(256), 'a b') },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  }
  return fc.option(fittingText(header.schema, header.name, known), {
    nil: undefined,
    freq: header.required ? 8 : 2,
  });
}

/** One request to the operation: its path with real or broken ids, a query, headers, a body, a content type. */
export function requestFor(operation: Operation, known: Known): fc.Arbitrary<FuzzRequest> {
  const path = fc
    .tuple(...operation.pathParams.map(() => segment(known)))
    .map((values) =>
      operation.pathParams.reduce((p, name, i) => p.replace(`{${name}}`, values[i] ?? ''), operation.path),
    );
  const query = fc
    .tuple(
      ...operation.query.map((q) =>
        fc.option(
          fc.oneof(
            { weight: 10, arbitrary: fitting(q.schema, q.name, known).map((v) => [String(v)]) },
            { weight: 2, arbitrary: queryValue(q.schema, q.name, known).map((v) => [v]) },
            {
              weight: 1,
              arbitrary: fc.array(queryValue(q.schema, q.name, known), { minLength: 2, maxLength: 3 }),
            },
          ),
          { nil: undefined, freq: 2 },
        ),
      ),
    )
    .map((values) =>
      operation.query
        .flatMap((q, i) => (values[i] ?? []).map((v) => `${encode(q.name)}=${encode(v)}`))
        .join('&'),
    );
  const body: fc.Arbitrary<{ payload?: string; contentType?: string }> = operation.body
    ? fc.oneof(
        {
          weight: 8,
          arbitrary: objectBody(operation.body, known).map((payload) => ({
            payload,
            contentType: 'application/json',
          })),
        },
        {
          weight: 2,
          arbitrary: strangeBody.map((payload) => ({ payload, contentType: 'application/json' })),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            { payload: 'name=x', contentType: 'application/x-www-form-urlencoded' },
            { payload: 'hello', contentType: 'text/plain' },
            { payload: undefined, contentType: undefined },
          ),
        },
      )
    : fc.constant({});
  const headers = fc
    .tuple(...operation.headers.map((h) => headerValue(h, known)))
    .map((values) =>
      Object.fromEntries(
        operation.headers.flatMap((h, i) => (values[i] === undefined ? [] : [[h.name, values[i] as string]])),
      ),
    );
  return fc.tuple(path, query, headers, body).map(([p, q, h, b]) => ({
    method: operation.method,
    url: q ? `${p}?${q}` : p,
    headers: { ...h, ...(b.contentType ? { 'content-type': b.contentType } : {}) } as Record<string, string>,
    ...(b.payload === undefined ? {} : { payload: b.payload }),
  }));
}
