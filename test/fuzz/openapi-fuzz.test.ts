import { expect } from 'chai';
import fc from '../support/fast-check.js';
import { createArgon2PasswordHasher } from '../../adapters/node/argon2-password-hasher.js';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createAltchaSolver } from '../../adapters/remote/altcha-solver.js';
import { createSseParser, type SseEvent } from '../../adapters/remote/sse-reader.js';
import type { MemberAuth } from '../../server/auth/auth-context.js';
import { createPlatform, type Platform } from '../../server/platform.js';
import { createLogger } from '../../server/logger.js';
import { resolve as resolveToken } from '../../server/tokens.js';
import { createKeys, openSession, TEST_ALTCHA_ENV } from '../server/support/chat.js';
import { openMemoryPglite } from '../support/databases.js';
import { createResponseValidator } from '../support/openapi-validator.js';
import { addMember, listen, seedOrg, SEED_PASSWORD, testConfig, type SeededOrg } from '../support/platform.js';
import { arbitraryOf, bodyOf, type JsonSchema } from './schema-arbitrary.js';
import { fuzzSeed } from './seed.js';

/** Requests per operation (FUZZ_RUNS overrides; the issue asks for at least 200). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SHOP = 'https://shop.example.com';

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required?: boolean;
  readonly schema: JsonSchema;
}
interface Operation {
  readonly operationId: string;
  readonly security?: ReadonlyArray<Record<string, unknown>>;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content: Record<string, { readonly schema: JsonSchema }> };
  readonly responses: Record<string, unknown>;
  readonly 'x-error-codes'?: readonly string[];
}
type Doc = Parameters<typeof createResponseValidator>[0] & { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, JsonSchema> } };

/** Who calls: every role of CONTRACT §2 for dashboard routes, every key kind for browser routes, and nobody. */
type Credential = { readonly role: string; readonly headers: Record<string, string> };

/** One generated request. */
interface FuzzRequest {
  readonly credential: Credential;
  readonly path: string;
  readonly query: string;
  readonly body: { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'raw'; readonly text: string; readonly type: string } | { readonly kind: 'none' };
  /** Whether a path id names a record of the other organisation (must never be answered 2xx). */
  readonly foreign: boolean;
  /** Whether the query carries a parameter the operation does not document (must never be answered 2xx). */
  readonly unknownParam: boolean;
  /** An `If-Match` precondition on writes (HTTP's optimistic concurrency; some routes require one). */
  readonly ifMatch?: string;
}

/** A per-check seed: the run's seed mixed with a label (FNV-1a), so each check has its own stream. */
function derivedSeed(seed: number, label: string): number {
  let h = 0x811c9dc5 ^ (seed | 0);
  for (const ch of label) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h | 0;
}

const SSE_EVENTS = new Set(['start', 'delta', 'citation', 'refusal', 'done', 'error']);

/** Checks a stream against CONTRACT §4: known events, increasing ids, JSON data of each event's shape, one terminal event. */
function checkStream(text: string): string | null {
  const events: SseEvent[] = [];
  const parser = createSseParser({ onEvent: (e) => events.push(e) });
  parser.push(text);
  parser.end();
  if (events.length === 0) return 'empty event stream';
  let lastId = 0;
  for (const [i, e] of events.entries()) {
    if (!SSE_EVENTS.has(e.event)) return `unknown event ${e.event}`;
    if (!(Number(e.id) > lastId)) return `event ids not increasing at ${e.event}`;
    lastId = Number(e.id);
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(e.data) as Record<string, unknown>;
    } catch {
      return `event ${e.event} data is not JSON`;
    }
    const terminal = e.event === 'done' || e.event === 'error';
    if (terminal !== (i === events.length - 1)) return `${e.event} at position ${i} of ${events.length}`;
    if (e.event === 'start' && (typeof data.request_id !== 'string' || data.mode !== 'remote')) return 'bad start event';
    if (e.event === 'delta' && typeof data.text !== 'string') return 'bad delta event';
    if (e.event === 'citation' && (!Number.isInteger(data.index) || typeof data.url !== 'string')) return 'bad citation event';
    if (e.event === 'done') {
      const usage = data.usage as Record<string, unknown> | undefined;
      if (!['stop', 'length', 'refused'].includes(data.finish_reason as string) || !Number.isInteger(usage?.input_tokens) || !Number.isInteger(usage?.output_tokens)) return 'bad done event';
    }
    if (e.event === 'error') {
      const error = data.error as Record<string, unknown> | undefined;
      if (typeof error?.code !== 'string' || typeof error.message !== 'string' || typeof error.request_id !== 'string') return 'bad error event';
    }
  }
  return null;
}

// Issue #11 ("keep the proof"): requests generated from the served OpenAPI document's own schemas — valid ones and
// broken ones — as every role, against a listening server. The document is the oracle: no 5xx it does not declare,
// every error in the contract's shape with a declared code, every success body valid against its schema.
describe('OpenAPI-driven fuzzing of /v1 (every operation, every role)', function () {
  this.timeout(600_000);
  const seed = fuzzSeed();
  let database: KnexDatabase;
  let platform: Platform;
  let server: { url: string; close(): Promise<void> };
  let doc: Doc;
  let validate: ReturnType<typeof createResponseValidator>;
  let org: SeededOrg;
  let keys: Awaited<ReturnType<typeof createKeys>>;
  const pools = { keyIds: [] as string[], userIds: [] as string[], foreignKeyIds: [] as string[], foreignUserIds: [] as string[], solutions: [] as string[] };
  const credentials = { dashboard: [] as Credential[], browser: [] as Credential[], publishableOnly: [] as Credential[], console: [] as Credential[], none: [] as Credential[] };
  const tally: Record<string, { requests: number; roles: Record<string, number>; statuses: Record<string, number> }> = {};

  before(async function () {
    this.timeout(300_000);
    // eslint-disable-next-line no-console
    console.log(`      openapi fuzz: seed ${seed} (FC_SEED=${seed} replays it), ${RUNS} requests per operation`);
    database = await openMemoryPglite();
    // Argon2id with small parameters: signups and logins are fuzzed by the hundred, and the hash strength is not
    // what this test is about (test/server/routes/auth.routes.test.ts checks the production parameters).
    const passwordHasher = createArgon2PasswordHasher({ memoryCost: 1024, timeCost: 1 });
    const limits = { requests_per_minute: 1_000_000, session_requests_per_minute: 1_000_000, org_requests_per_minute: 1_000_000, max_keys: 10_000, monthly_tokens: 1_000_000_000 };
    const config = testConfig({ ...TEST_ALTCHA_ENV, KIT_PLAN_LIMITS: JSON.stringify({ free: limits, pro: limits, business: limits }) });
    platform = await createPlatform(config, { database, logger: createLogger('silent'), passwordHasher });
    server = await listen(platform);
    doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as Doc;
    validate = createResponseValidator(doc);

    org = await seedOrg(platform, 'fuzz');
    keys = await createKeys(platform, org, { allowedOrigins: [SHOP] });
    const keyService = resolveToken(platform.container, 'KeyService');
    const owner: MemberAuth = { kind: 'member', userId: org.members.owner.userId, orgId: org.orgId, role: 'owner' };
    for (let i = 0; i < 30; i++) {
      const created = await keyService.create(owner, i % 2 ? 'secret' : 'publishable', i % 2 ? { name: `fuzz pool ${i}` } : { name: `fuzz pool ${i}`, allowedOrigins: [SHOP] });
      if (!created.ok) throw new Error(created.reason);
      pools.keyIds.push(created.value.key.id);
    }
    // Members the fuzzer may re-role or remove; the four role holders above stay as they are.
    for (let i = 0; i < 12; i++) pools.userIds.push((await addMember(platform, org.orgId, i % 2 ? 'developer' : 'viewer')).userId);
    const other = await seedOrg(platform, 'fuzz-other');
    const otherKeys = await createKeys(platform, other, { allowedOrigins: [SHOP] });
    pools.foreignKeyIds.push(otherKeys.publishableId, otherKeys.secretId);
    pools.foreignUserIds.push(...Object.values(other.members).map((m) => m.userId));

    const session = await openSession(server.url, keys.publishable, SHOP);
    const solve = createAltchaSolver({ worker: false });
    for (let i = 0; i < 24; i++) {
      const config = (await (await fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${keys.publishable}`, origin: SHOP } })).json()) as { bot_challenge: { challenge: Parameters<typeof solve>[0] } };
      pools.solutions.push(await solve(config.bot_challenge.challenge));
    }

    const bearer = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
    const garbage = [
      { role: 'anonymous', headers: {} },
      { role: 'malformed-credential', headers: bearer('kit_pub_0000000000000000000000000000000000000') },
    ];
    credentials.dashboard = [
      ...(['owner', 'admin', 'developer', 'viewer'] as const).map((role) => ({ role, headers: bearer(org.members[role].token) })),
      ...garbage,
      { role: 'secret-key-on-dashboard', headers: bearer(keys.secret) },
    ];
    credentials.browser = [
      { role: 'publishable+session', headers: bearer(keys.publishable, { 'kit-session': session, origin: SHOP }) },
      { role: 'publishable', headers: bearer(keys.publishable, { origin: SHOP }) },
      { role: 'publishable-foreign-origin', headers: bearer(keys.publishable, { origin: 'https://evil.example.net' }) },
      { role: 'secret', headers: bearer(keys.secret) },
      { role: 'jwt-on-key-route', headers: bearer(org.members.owner.token) },
      ...garbage,
    ];
    credentials.none = [{ role: 'anonymous', headers: {} }];
    // The console's cookie routes (scheme consoleSession): each role's browser session, signed in through the console's
    // own route, with its CSRF token and this server's Origin; the same cookie without the token; a forged cookie.
    const consoleCredential = async (role: keyof typeof org.members) => {
      const res = await fetch(`${server.url}/v1/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify({ email: org.members[role].email, password: SEED_PASSWORD }) });
      if (res.status !== 201) throw new Error(`console sign-in of the ${role}: ${res.status} ${await res.text()}`);
      const csrf = ((await res.json()) as { csrf_token: string }).csrf_token;
      return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf };
    };
    const ownerCookie = await consoleCredential('owner');
    credentials.console = [
      { role: 'owner-cookie', headers: { cookie: ownerCookie.cookie, 'x-csrf-token': ownerCookie.csrf, origin: server.url } },
      ...(await Promise.all((['admin', 'developer', 'viewer'] as const).map(async (role) => {
        const c = await consoleCredential(role);
        return { role: `${role}-cookie`, headers: { cookie: c.cookie, 'x-csrf-token': c.csrf, origin: server.url } };
      }))),
      { role: 'cookie-without-csrf', headers: { cookie: ownerCookie.cookie, origin: server.url } },
      { role: 'cookie-foreign-origin', headers: { cookie: ownerCookie.cookie, 'x-csrf-token': ownerCookie.csrf, origin: 'https://evil.example.net' } },
      { role: 'forged-cookie', headers: { cookie: 'kit_console=kit_bsn_0000000000000000000000000000000000000000' } },
      { role: 'anonymous', headers: {} },
    ];
  });

  after(async () => {
    const lines = Object.entries(tally).map(([op, t]) => `${op}: ${t.requests} requests; roles ${JSON.stringify(t.roles)}; statuses ${JSON.stringify(t.statuses)}`);
    if (process.env.FUZZ_VERBOSE) console.log(lines.join('\n')); // eslint-disable-line no-console
    const total = Object.values(tally).reduce((n, t) => n + t.requests, 0);
    const fivexx = Object.values(tally).reduce((n, t) => n + Object.entries(t.statuses).filter(([s]) => s.startsWith('5')).reduce((m, [, c]) => m + c, 0), 0);
    // eslint-disable-next-line no-console
    console.log(`      openapi fuzz: ${total} requests over ${Object.keys(tally).length} operations (seed ${seed}); 5xx answers: ${fivexx} (declared 503s only)`);
    await server?.close();
    await platform?.close();
    await database?.close();
  });

  const resolveRef = (ref: string): JsonSchema => {
    const name = ref.replace('#/components/schemas/', '');
    const schema = doc.components.schemas[name];
    if (!schema) throw new Error(`unresolved ${ref}`);
    return schema;
  };

  function credentialsOf(op: Operation): Credential[] {
    const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
    if (schemes.includes('dashboardToken')) return credentials.dashboard;
    if (schemes.includes('publishableKey') || schemes.includes('secretKey')) return credentials.browser;
    if (schemes.includes('consoleSession')) return credentials.console;
    return credentials.none;
  }

  function pathValue(template: string, name: string, schema: JsonSchema): fc.Arbitrary<{ value: string; foreign: boolean }> {
    const keyId = name === 'id' && template.startsWith('/keys/');
    const own = keyId ? pools.keyIds : name === 'user_id' ? pools.userIds : [];
    const foreign = keyId ? pools.foreignKeyIds : name === 'user_id' ? pools.foreignUserIds : [];
    const arbs: Array<fc.WeightedArbitrary<{ value: string; foreign: boolean }>> = [
      { arbitrary: arbitraryOf(schema, resolveRef).map((v) => ({ value: String(v), foreign: false })).filter((v) => v.value !== ''), weight: 2 },
      // never empty: `/keys/` is another path (a URL with an empty segment is not a request of this operation)
      { arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map((value) => ({ value, foreign: false })), weight: 1 },
    ];
    if (own.length) arbs.push({ arbitrary: fc.constantFrom(...own).map((value) => ({ value, foreign: false })), weight: 5 });
    if (foreign.length) arbs.push({ arbitrary: fc.constantFrom(...foreign).map((value) => ({ value, foreign: true })), weight: 2 });
    return fc.oneof(...arbs);
  }

  function requestArbitrary(method: string, template: string, op: Operation, credential: Credential): fc.Arbitrary<FuzzRequest> {
    const params = op.parameters ?? [];
    const pathParams = params.filter((p) => p.in === 'path');
    const queryParams = params.filter((p) => p.in === 'query');
    const path = fc.tuple(...pathParams.map((p) => pathValue(template, p.name, p.schema))).map((values) => {
      let out = template;
      let foreign = false;
      for (const [i, p] of pathParams.entries()) {
        out = out.replace(`{${p.name}}`, encodeURIComponent(values[i]!.value));
        foreign ||= values[i]!.foreign;
      }
      return { path: out, foreign };
    });
    const query = fc
      .tuple(
        ...queryParams.map((p) =>
          fc.option(fc.oneof({ arbitrary: arbitraryOf(p.schema, resolveRef), weight: 4 }, { arbitrary: fc.string({ maxLength: 30 }), weight: 1 }), { nil: undefined, freq: 3 }).map((v) => [p.name, v] as const),
        ),
        // A parameter the operation does not take, in one request of five: it must be refused (`invalid_request`),
        // never ignored (docs/api.md, "Errors"); the other four reach the operation's successes.
        fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 4 },
          { arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 })).filter(([name]) => !queryParams.some((p) => p.name === name)), weight: 1 },
        ),
      )
      .map((entries) => {
        const search = new URLSearchParams();
        for (const entry of entries) {
          if (!entry) continue;
          const [name, value] = entry as readonly [string, unknown];
          if (value !== undefined) search.append(name, typeof value === 'string' ? value : JSON.stringify(value));
        }
        const text = search.toString();
        return { query: text ? `?${text}` : '', unknownParam: entries.at(-1) !== undefined };
      });
    const schema = op.requestBody?.content['application/json']?.schema;
    const body: fc.Arbitrary<FuzzRequest['body']> = schema
      ? fc.oneof(
          { arbitrary: bodyOf(schema, resolveRef).map((value) => ({ kind: 'json' as const, value: withSolution(template, value) })), weight: 16 },
          { arbitrary: fc.string({ maxLength: 60 }).map((text) => ({ kind: 'raw' as const, text, type: 'application/json' })), weight: 1 },
          { arbitrary: bodyOf(schema, resolveRef).map((value) => ({ kind: 'raw' as const, text: JSON.stringify(value) ?? '', type: 'text/plain' })), weight: 1 },
          { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
        )
      : fc.constant({ kind: 'none' as const });
    const ifMatch = ['patch', 'put', 'delete'].includes(method) ? fc.option(fc.constantFrom('*', '"1"', 'W/"2"', '"999999"', 'not an etag'), { nil: undefined, freq: 2 }) : fc.constant(undefined);
    return fc.record({ path, query, body, ifMatch }).map(({ path: p, query: q, body: b, ifMatch: m }) => ({ credential, path: p.path, foreign: p.foreign, query: q.query, unknownParam: q.unknownParam, body: b, ...(m === undefined ? {} : { ifMatch: m }) }));
  }

  /**
   * What no schema can tell a fuzzer, mixed into some valid-shaped bodies so the successes are reached too:
   * POST /session gets a real solution now and then, POST /auth/login a real account's email and password.
   */
  let solutionCursor = 0;
  let loginCursor = 0;
  function withSolution(template: string, value: unknown): unknown {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    // The console's sign-in (POST /auth/session) takes the same email and password as POST /auth/login.
    if ((template === '/auth/login' || template === '/auth/session') && typeof (value as { email?: unknown }).email === 'string' && loginCursor++ % 4 === 0) {
      const member = Object.values(org.members)[loginCursor % 4]!;
      return { ...value, email: member.email, password: SEED_PASSWORD };
    }
    if (template !== '/session') return value;
    if ((value as { provider?: unknown }).provider !== 'altcha' || solutionCursor >= pools.solutions.length) return value;
    if (typeof (value as { solution?: unknown }).solution === 'string' && ((value as { solution: string }).solution.length % 3 === 0)) {
      return { ...value, solution: pools.solutions[solutionCursor++] };
    }
    return value;
  }

  async function send(method: string, template: string, op: Operation, req: FuzzRequest): Promise<string | null> {
    const headers: Record<string, string> = { ...req.credential.headers, ...(req.ifMatch === undefined ? {} : { 'if-match': req.ifMatch }) };
    let payload: string | undefined;
    if (req.body.kind === 'json') {
      payload = JSON.stringify(req.body.value) ?? 'null';
      headers['content-type'] = 'application/json';
    } else if (req.body.kind === 'raw') {
      payload = req.body.text;
      headers['content-type'] = req.body.type;
    }
    const res = await fetch(`${server.url}/v1${req.path}${req.query}`, { method: method.toUpperCase(), headers, ...(payload === undefined ? {} : { body: payload }) });
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      return `${res.status} ${res.headers.get('content-type')}: the body broke off (${(err as Error).message}: ${String((err as { cause?: unknown }).cause)})`;
    }
    const t = (tally[`${method.toUpperCase()} ${template}`] ??= { requests: 0, roles: {}, statuses: {} });
    t.requests += 1;
    t.roles[req.credential.role] = (t.roles[req.credential.role] ?? 0) + 1;
    t.statuses[res.status] = (t.statuses[res.status] ?? 0) + 1;

    const requestId = res.headers.get('request-id');
    if (!requestId || !/^req_[0-9A-Za-z]+$/.test(requestId)) return `no Request-Id header (${res.status})`;
    if (res.status >= 500 && !(res.status === 503 && op.responses['503'])) return `answered ${res.status}: ${text.slice(0, 300)}`;
    if (req.foreign && res.status < 300) return `another organisation's record answered ${res.status}`;
    if (req.unknownParam && res.status < 300) return `a query parameter the operation does not take was ignored (${res.status})`;
    if (res.status === 204) return text === '' ? null : '204 with a body';
    // Successes in another media type than JSON (streams, exports) must be one the document declares for the status.
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (mediaType !== 'application/json') {
      const declared = Object.keys((op.responses[String(res.status)] as { content?: Record<string, unknown> } | undefined)?.content ?? {});
      if (!declared.includes(mediaType)) return `${res.status} answered ${mediaType || 'no content type'}, the document declares ${declared.join(', ') || 'none'}`;
      if (mediaType === 'text/event-stream') return checkStream(text);
      if (mediaType === 'application/x-ndjson') {
        for (const line of text.split('\n').filter(Boolean)) {
          try {
            JSON.parse(line);
          } catch {
            return `NDJSON line is not JSON: ${line.slice(0, 100)}`;
          }
        }
      }
      return null;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return `${res.status} body is not JSON: ${text.slice(0, 100)}`;
    }
    if (process.env.FUZZ_TRACE && `${method.toUpperCase()} ${template}` === process.env.FUZZ_TRACE) console.log(res.status, req.credential.role, req.path, payload?.slice(0, 200), text.slice(0, 200)); // eslint-disable-line no-console
    const problem = validate(method, template, res.status, json);
    if (problem) return problem;
    if (res.status >= 400 && (json as { error: { request_id: string } }).error.request_id !== requestId) return 'error.request_id differs from the Request-Id header';
    return null;
  }

  it('covers every operation of the served document', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(operations.length).to.be.at.least(20);
  });

  // One test per operation, declared once the document is known (mocha's delayed root would be global):
  // the operations are read from the same routes the server documents.
  it('answers every generated request within the contract, for every operation', async () => {
    const failures: string[] = [];
    // Destructive operations last: DELETE empties the pools of records the other operations aim at.
    const operations = Object.entries(doc.paths)
      .flatMap(([template, ops]) => Object.entries(ops).map(([method, op]) => ({ template, method, op })))
      .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
    for (const { template, method, op } of operations) {
      {
        const creds = credentialsOf(op);
        const perRole = Math.ceil(RUNS / creds.length);
        for (const credential of creds) {
          // One stream per operation and role, derived from the run's seed (the same seed everywhere would make every
          // operation pick the same pool records in the same order: DELETE would have removed what rotate then asks for).
          const checkSeed = derivedSeed(seed, `${method} ${template} ${credential.role}`);
          const result = await fc.check(
            fc.asyncProperty(requestArbitrary(method, template, op, credential), async (req) => {
              const problem = await send(method, template, op, req);
              if (problem) throw new Error(`${method.toUpperCase()} ${req.path}${req.query} as ${req.credential.role} (${req.body.kind}${req.body.kind === 'json' ? ` ${JSON.stringify(req.body.value)?.slice(0, 200)}` : ''}): ${problem}`);
            }),
            { seed: checkSeed, numRuns: perRole, endOnFailure: true },
          );
          if (result.failed) failures.push(`${String((result.errorInstance as Error | undefined)?.message ?? result.errorInstance)} [run seed ${seed}; this check's seed ${checkSeed}, path "${result.counterexamplePath}"]`);
        }
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
    // Every operation got its share, as each of its roles, and the fuzzer reached successes (not only refusals).
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const t = tally[`${method.toUpperCase()} ${template}`]!;
        expect(t.requests, `${method} ${template}`).to.be.at.least(RUNS);
        expect(Object.keys(t.roles).sort(), `${method} ${template}`).to.deep.equal(credentialsOf(op).map((c) => c.role).sort());
      }
    }
    // The fuzzer must reach successes, not only refusals: billing is not configured here (its documented 503), and
    // some operations need records or knowledge no schema gives (a logged question's id); the rest must answer 2xx.
    const withoutSuccess = Object.entries(tally).filter(([, t]) => !Object.keys(t.statuses).some((s) => s.startsWith('2'))).map(([op]) => op);
    // eslint-disable-next-line no-console
    if (withoutSuccess.length) console.log(`      openapi fuzz: operations never answered 2xx: ${withoutSuccess.sort().join(', ')}`);
    expect(withoutSuccess).to.include.members(['POST /billing/checkout', 'POST /billing/webhook']);
    expect(withoutSuccess.length, 'operations the fuzzer never got a success from').to.be.at.most(Math.floor(Object.keys(tally).length / 3));
  });
});
