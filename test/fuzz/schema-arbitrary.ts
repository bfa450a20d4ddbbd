import fc from '../support/fast-check.js';

/** The part of JSON Schema 2020-12 the OpenAPI document's request schemas use (zod's toJSONSchema output). */
export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly pattern?: string;
  readonly format?: string;
}

/** Longest generated string / array, whatever the schema allows: a fuzz request stays small and fast. */
const MAX_STRING = 200;
const MAX_ITEMS = 6;

/** Strings of every kind: ASCII, any Unicode code point (lone surrogates included), and ones that look hostile. */
function anyString(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const hostile = fc.constantFrom("' or 1=1 --", '"; drop table users; --', '<script>alert(1)</script>', '../../etc/passwd', '%00', '\u0000', '\r\nX-Injected: 1', '${7*7}', '{{7*7}}', 'null', '0', '-1', ' ', '\u202e', '🙂'.repeat(3));
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength }), weight: 4 },
    { arbitrary: fc.string({ unit: 'binary', minLength, maxLength }), weight: 2 },
    { arbitrary: fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\udfff', '\u00e9', '\u0301', '"', '\\', '%'), minLength, maxLength }), weight: 1 },
    { arbitrary: hostile.filter((s) => s.length >= minLength && s.length <= maxLength), weight: 1 },
  );
}

/**
 * A fast-check arbitrary of values valid against `schema` (as far as the keywords above go), resolving `$ref`s with
 * `resolve`. Unknown keywords are ignored; a schema with no type gives any JSON value.
 */
export function arbitraryOf(schema: JsonSchema, resolve: (ref: string) => JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryOf(resolve(schema.$ref), resolve, depth);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, resolve, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) return arbitraryOf(schema.allOf[0]!, resolve, depth + 1);
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => arbitraryOf({ ...schema, type }, resolve, depth + 1)));
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer': {
      const min = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : (schema.minimum ?? -1_000_000);
      const max = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : (schema.maximum ?? 1_000_000);
      return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 6) return fc.constant([]);
      const min = schema.minItems ?? 0;
      return fc.array(schema.items ? arbitraryOf(schema.items, resolve, depth + 1) : fc.jsonValue({ maxDepth: 2 }), { minLength: min, maxLength: Math.max(min, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS)) });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, arbitraryOf(s, resolve, depth + 1)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
  if (schema.format === 'email') {
    // RFC 5321 allows far more than sign-up forms do: mostly everyday addresses, some of the exotic rest.
    const everyday = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9._+-]{0,20}[a-z0-9]$/), fc.stringMatching(/^[a-z][a-z0-9-]{0,15}\.(test|example|com)$/)).map(([local, domain]) => `${local}@${domain}`);
    return fc.oneof({ arbitrary: everyday, weight: 3 }, { arbitrary: fc.emailAddress(), weight: 1 }).filter((e) => e.length <= maxLength);
  }
  if (schema.format === 'date-time') return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'date') return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'uri' || schema.format === 'url') return fc.webUrl({ withQueryParameters: true, withFragments: true });
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  return anyString(minLength, maxLength);
}

/**
 * Requests' bodies as a fuzzer sends them: mostly valid against the schema, and the rest broken in the ways clients
 * break them — a field of the wrong type, a required field missing, an unknown field, any JSON value at all.
 */
export function bodyOf(schema: JsonSchema, resolve: (ref: string) => JsonSchema): fc.Arbitrary<unknown> {
  const valid = arbitraryOf(schema, resolve);
  const target = schema.$ref ? resolve(schema.$ref) : schema;
  const names = Object.keys(target.properties ?? {});
  const broken: Array<fc.WeightedArbitrary<unknown>> = [{ arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 }];
  if (names.length > 0) {
    const asObject = valid.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
    broken.push(
      { arbitrary: fc.tuple(asObject, fc.constantFrom(...names), fc.jsonValue({ maxDepth: 2 })).map(([v, k, x]) => ({ ...v, [k]: x })), weight: 4 },
      { arbitrary: fc.tuple(asObject, fc.constantFrom(...names)).map(([v, k]) => Object.fromEntries(Object.entries(v).filter(([name]) => name !== k))), weight: 2 },
      { arbitrary: fc.tuple(asObject, fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })).map(([v, k, x]) => ({ ...v, [k]: x })), weight: 1 },
    );
  }
  return fc.oneof({ arbitrary: valid, weight: 10 }, ...broken);
}
