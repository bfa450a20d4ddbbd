import type { Knex } from 'knex';
import { embeddedWorkerOf } from './knex-database.js';
import { latencyMarks } from './latency-marks.js';

/** The limits one `/chat` admission is checked against (the organisation's plan). */
export interface ChatAdmissionLimits {
  readonly keyPerMinute: number;
  readonly sessionPerMinute: number;
  readonly orgPerMinute: number;
  readonly monthlyTokens: number;
}

/** One `/chat` request asking to be admitted. */
export interface ChatAdmissionRequest {
  readonly orgId: string;
  readonly keyId: string;
  readonly sessionId: string | null;
  readonly now: Date;
  readonly limits: ChatAdmissionLimits;
  /** The request's worst case: input estimate plus the plan's output cap. */
  readonly reserveTokens: number;
  /** The usage row written when admitted (it holds the reservation until the chat settles). */
  readonly requestId: string;
  readonly model: string;
  /** When a reservation nobody settled (its process died) is released by {@link ChatLimiter.sweep}. */
  readonly expiresAt: Date;
}

/** What one admission counted, read and decided. */
export interface ChatAdmission {
  /** True when every window and the month had room: the reservation and the usage row are written. */
  readonly admitted: boolean;
  /** Requests of this key in the current minute, this one included. */
  readonly keyCount: number;
  /** Requests of this session in the current minute, this one included; null without a session. */
  readonly sessionCount: number | null;
  /** Requests of the organisation in the current minute, this one included. */
  readonly orgCount: number;
  /** Tokens of settled chats this month (UTC). */
  readonly tokensUsed: number;
  /** Tokens reserved by chats in flight, this one included when admitted. */
  readonly tokensReserved: number;
  /** End of the current one-minute window. */
  readonly windowResetAt: Date;
}

/** The real figures of a finished chat. */
export interface ChatSettlement {
  readonly orgId: string;
  readonly requestId: string;
  /** The admission time (`now` of the admission): the usage row's `created_at`. */
  readonly admittedAt: Date;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly refused: boolean;
}

/**
 * Admission and metering of `/chat` against per-minute windows and the monthly token quota, exact across every
 * replica sharing the database.
 */
export interface ChatLimiter {
  /**
   * Counts the request in its windows and, when all allow it, reserves `reserveTokens` against the month — one statement,
   * shared with the admissions of its organisation that arrive while the previous one is in the database.
   */
  admit(request: ChatAdmissionRequest): Promise<ChatAdmission>;
  /** Settles an admitted chat to its real figures and releases its reservation (batched per organisation, one statement a batch). */
  settle(settlement: ChatSettlement): Promise<void>;
  /** Releases reservations past their `expiresAt` (their process died); returns how many. */
  sweep(now: Date): Promise<number>;
}

/** Options of the PostgreSQL chat limiter. */
export interface PgChatLimiterOptions {
  /** How often (ms) one process deletes expired window counters and releases expired reservations, off the request path. Default 60 000. */
  readonly sweepEveryMs?: number;
  readonly onSweepError?: (err: unknown) => void;
  /** Most settlements in one statement. Default 500. */
  readonly maxBatch?: number;
  /**
   * How long (ms) a settlement waits before it gets a statement of its own. An admission statement of its
   * organisation takes it along meanwhile (inside the statement, on both databases); the organisation's chats that end within it share one
   * settlement statement. A settlement never gets a statement of its own while an admission statement of its
   * organisation is in the database, however long it has waited: that admission's return takes it along in the next
   * batch or schedules it. Default 10; 0 = at the next turn of the event loop. Nobody waits for a settlement on the
   * response path (ChatService settles after the answer), so under load a chat costs its organisation's database
   * about one statement per admission batch for both ends (on PGlite: one message to the worker and back), and
   * no settlement statement contends with the admissions for the month row's lock.
   */
  readonly settleDelayMs?: number;
}

const WINDOW_MS = 60_000;

/** First day of `now`'s month (UTC) as the `date` `org_meters` keys on. */
export function monthOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

const UPSERT_WINDOW = `insert into rate_limits (bucket, window_start, count, expires_at) values (?, ?, 1, ?)
  on conflict (bucket, window_start) do update set count = rate_limits.count + 1 returning count`;

// The organisation's window after this request: the stored one goes on, an older one restarts at 1. A replica whose
// clock is behind never moves the window back (greatest).
const ORG_COUNT = 'case when m.window_start >= excluded.window_start then m.window_count + 1 else 1 end';

/**
 * ONE statement per admission. Its data-modifying CTEs count the key's (and the session's) fixed one-minute window in
 * `rate_limits`, then upsert the organisation's `org_meters` row of the month: its one-minute window, and — only
 * when the key, session and organisation windows allow the request and `used + reserved + this reservation` fits the
 * month — the reservation. The upsert locks that one row, so concurrent admissions of an organisation (from any
 * replica) see each other's reservations: the month can never be over-reserved. An admitted request's usage row is
 * inserted in the same statement (state `reserved`).
 */
function admissionSql(withSession: boolean): string {
  const admit = `(select pass from ok) and ${ORG_COUNT} <= ? and m.used + m.reserved + cast(? as bigint) <= cast(? as bigint)`;
  return `with k as (${UPSERT_WINDOW}),
    s as (${withSession ? UPSERT_WINDOW : 'select null::int as count'}),
    ok as (select (select count from k) <= ? and coalesce((select count from s), 0) <= ? as pass),
    o as (
      insert into org_meters as m (org_id, month, used, reserved, window_start, window_count, admitted)
      select ?, cast(? as date), 0, case when f.adm then ? else 0 end, ?, 1, f.adm
        from (select (select pass from ok) and 1 <= ? and cast(? as bigint) <= cast(? as bigint) as adm) f
      on conflict (org_id, month) do update set
        window_start = greatest(m.window_start, excluded.window_start),
        window_count = ${ORG_COUNT},
        admitted = ${admit},
        reserved = m.reserved + case when ${admit} then ? else 0 end
      returning used, reserved, window_count, admitted
    ),
    u as (
      insert into usage_events (org_id, key_id, mode, model, input_tokens, output_tokens, refused, request_id, created_at, state, reserved_tokens, expires_at, rolled)
      select ?, ?, 'remote', ?, 0, 0, false, ?, ?, 'reserved', ?, ?, false from o where o.admitted
      returning id
    )
    select (select count from k) as key_count, (select count from s) as session_count,
           o.window_count as org_count, o.used, o.reserved, o.admitted, (select count(*) from u) as inserted
      from o`;
}

/**
 * Where a batch of settlements finds its usage rows, besides each row's own `(created_at, request_id)`: the
 * organisation, the batch's admission times as an array, and their earliest and latest as a range. Without them the
 * rows are found only through the join, and once `usage_events` has statistics in which the organisation is rare
 * (measured: a new organisation after ANALYZE of a month holding another's million rows), PostgreSQL joined on the
 * organisation alone and re-read all its rows of the month for every row settled (EXPLAIN: `Index Cond: (org_id = …)`, `Join
 * Filter: created_at, request_id`), so a settlement's cost grew with the organisation's month. With them, the index
 * `(org_id, created_at, request_id)` is entered at those times only, whatever the plan, and on PostgreSQL the range
 * prunes every monthly partition but the batch's own (one for a batch within a month) at planning or at executor start.
 * Bindings: organisation, times array, earliest, latest.
 */
const SETTLED_ROWS = `e.org_id = cast(? as text) and e.created_at = any(cast(? as timestamptz[]))
        and e.created_at >= cast(? as timestamptz) and e.created_at <= cast(? as timestamptz)`;

/** The bindings of {@link SETTLED_ROWS} for a batch of settlements of one organisation. */
function settledRowsBindings(list: readonly ChatSettlement[]): unknown[] {
  const times = list.map((s) => s.admittedAt.getTime());
  return [list[0]!.orgId, list.map((s) => s.admittedAt), new Date(Math.min(...times)), new Date(Math.max(...times))];
}

/**
 * ONE statement for a batch of admissions of one organisation, one minute window and one plan's limits (the requests
 * that arrived while the previous admission of the organisation was in the database), with the same outcome as
 * admitting them one after the other in arrival order (`ord`). The key and session windows are counted for the whole
 * batch in one upsert (`w`); a request's own count is the window's count after the batch less the requests of that
 * window behind it. The organisation's month row is locked (`m`, FOR UPDATE: a concurrent admission or settlement
 * from any replica is waited for and its result read), then the requests are decided in order (`seq`, recursive):
 * admitted when its key, session and organisation windows allow it and `used + reserved + what the batch already
 * reserved + this reservation` fits the month. The row takes the window and the admitted reservations (`o`) and each
 * admitted request gets its usage row (`u`), as the one-request statement does. The month row must exist (it is
 * created by the one-request statement, which runs first for an organisation and month in every process): without
 * it nothing is decided and no row is returned.
 *
 * On both databases, the organisation's settlements of the same month that wait for their statement go in it too (`sv`,
 * `su`: as SETTLE_SQL does), before the admissions: the chats that ended meanwhile release their reservations first, and a
 * busy organisation's chat costs its database one statement a batch for both ends instead of two.
 */
function admitBatchSql(settling: boolean): string {
  const SETTLING = settling ? `    sv (request_id, created_at, input_tokens, output_tokens, refused, model) as (
      select * from unnest(cast(? as text[]), cast(? as timestamptz[]), cast(? as int[]), cast(? as int[]), cast(? as boolean[]), cast(? as text[]))
    ),
    su as (
      update usage_events e set input_tokens = sv.input_tokens, output_tokens = sv.output_tokens, refused = sv.refused,
             model = sv.model, state = 'settled', expires_at = null
        from sv where ${SETTLED_ROWS} and e.created_at = sv.created_at and e.request_id = sv.request_id and e.state = 'reserved'
      returning e.reserved_tokens, e.input_tokens + e.output_tokens as spent
    ),
    sa as (select coalesce(sum(spent), 0) as spent, coalesce(sum(reserved_tokens), 0) as released from su),
`
    : '    sa as (select 0 as spent, 0 as released),\n';
  const SETTLING_FIRST = settling ? ' and (select count(*) from su) >= 0' : '';
  return `with recursive
    v as (
      select * from unnest(cast(? as text[]), cast(? as text[]), cast(? as bigint[]), cast(? as text[]), cast(? as text[]), cast(? as timestamptz[]), cast(? as timestamptz[]))
        with ordinality as v (key_bucket, session_bucket, reserve, request_id, key_id, created_at, expires_at, ord)
    ),
    b as (
      select bucket, count(*) as n from (select key_bucket as bucket from v union all select session_bucket from v where session_bucket is not null) x
       group by bucket
    ),
    w as (
      insert into rate_limits (bucket, window_start, count, expires_at)
      select bucket, cast(? as timestamptz), n, cast(? as timestamptz) from b order by bucket
      on conflict (bucket, window_start) do update set count = rate_limits.count + excluded.count
      returning bucket, count
    ),
${SETTLING}    d as (
      select r.ord, r.reserve, r.request_id, r.key_id, r.created_at, r.expires_at,
             wk.count - bk.n + r.kr as key_count,
             case when r.session_bucket is null then null else ws.count - bs.n + r.sr end as session_count
        from (select v.*, row_number() over (partition by key_bucket order by ord) as kr,
                     row_number() over (partition by session_bucket order by ord) as sr from v) r
        join w wk on wk.bucket = r.key_bucket join b bk on bk.bucket = r.key_bucket
        left join w ws on ws.bucket = r.session_bucket left join b bs on bs.bucket = r.session_bucket
    ),
    -- (select count(*) from w), (… su): the windows are counted and the settled usage rows written before the month
    -- row is locked, in the other statements' order (key, session, usage rows, organisation): no deadlock between them.
    m as (
      select used, reserved, window_start, window_count from org_meters
       where org_id = cast(? as text) and month = cast(? as date) and (select count(*) from w) >= 0${SETTLING_FIRST} for update
    ),
    base as (select m.used + sa.spent as used, m.reserved - sa.released as reserved, case when m.window_start >= cast(? as timestamptz) then m.window_count else 0 end as wc from m, sa),
    seq (ord, held, admitted) as (
      select cast(0 as bigint), cast(0 as bigint), false
      union all
      select d.ord, seq.held + case when a.pass then d.reserve else 0 end, a.pass
        from seq join d on d.ord = seq.ord + 1 cross join base
        cross join lateral (select d.key_count <= ? and coalesce(d.session_count, 0) <= ? and base.wc + d.ord <= ?
                                   and base.used + base.reserved + seq.held + d.reserve <= cast(? as bigint) as pass) a
    ),
    o as (
      update org_meters mm set
        window_start = greatest(mm.window_start, cast(? as timestamptz)),
        window_count = base.wc + (select count(*) from v),
        used = mm.used + (select spent from sa),
        reserved = mm.reserved - (select released from sa) + (select coalesce(sum(d.reserve), 0) from seq join d using (ord) where seq.admitted),
        admitted = (select seq.admitted from seq order by seq.ord desc limit 1)
        from base where mm.org_id = cast(? as text) and mm.month = cast(? as date)
      returning 1
    ),
    u as (
      insert into usage_events (org_id, key_id, mode, model, input_tokens, output_tokens, refused, request_id, created_at, state, reserved_tokens, expires_at, rolled)
      select cast(? as text), d.key_id, 'remote', cast(? as text), 0, 0, false, d.request_id, d.created_at, 'reserved', d.reserve, d.expires_at, false
        from seq join d using (ord) where seq.admitted
      returning id
    )
    select d.ord, d.key_count, d.session_count, base.wc + d.ord as org_count, base.used, base.reserved + seq.held as reserved, seq.admitted,
           (select count(*) from o) as updated, (select count(*) from u) as inserted
      from seq join d using (ord) cross join base
     order by d.ord`;
}

/**
 * ONE statement per batch of settlements (of one organisation): the usage rows still `reserved` take their real
 * figures, and the organisation's month row moves those rows' reservations into `used`. A row already settled or
 * released by the sweep is skipped, so settling twice changes nothing. The batch comes as arrays (one statement
 * text for any batch size, so PostgreSQL prepares it once).
 */
export const SETTLE_SQL = `with v (request_id, created_at, input_tokens, output_tokens, refused, model) as (
      select * from unnest(cast(? as text[]), cast(? as timestamptz[]), cast(? as int[]), cast(? as int[]), cast(? as boolean[]), cast(? as text[]))
    ),
    u as (
      update usage_events e set input_tokens = v.input_tokens, output_tokens = v.output_tokens, refused = v.refused,
             model = v.model, state = 'settled', expires_at = null
        from v where ${SETTLED_ROWS} and e.created_at = v.created_at and e.request_id = v.request_id and e.state = 'reserved'
      returning e.org_id, e.created_at, e.reserved_tokens, e.input_tokens + e.output_tokens as spent
    ),
    a as (
      select org_id, date_trunc('month', created_at at time zone 'UTC')::date as month, sum(spent) as spent, sum(reserved_tokens) as released
        from u group by 1, 2
    )
    update org_meters m set used = m.used + a.spent, reserved = m.reserved - a.released
      from a where m.org_id = a.org_id and m.month = a.month`;

/**
 * ONE statement for a batch of one settlement: as {@link SETTLE_SQL}, with the row's key as scalars. PostgreSQL prices
 * the generic plan of the arrays statement for arrays of 10 elements: it kept that plan while `usage_events` was
 * empty, and once the table had statistics (1 M rows) it planned the statement again at every call, a large plan
 * (`npx tsx bench/support/settle-plans.ts`, 2026-11-27 20:39: 295 generic / 5 custom plans and 0.166 ms a call on
 * the empty table, 0 / 300 and 0.367 ms at 1 M rows). This one is planned at every call at any size (a generic plan
 * keeps every monthly partition; the custom plan prunes to one), and its plan is small: 0.244 and 0.227 ms. A chat
 * settled alone — the usual case below one chat ending per tick and organisation — costs the same at any table size.
 */
export const SETTLE_ONE_SQL = `with u as (
      update usage_events e set input_tokens = cast(? as int), output_tokens = cast(? as int), refused = cast(? as boolean),
             model = cast(? as text), state = 'settled', expires_at = null
       where e.org_id = cast(? as text) and e.created_at = cast(? as timestamptz) and e.request_id = cast(? as text) and e.state = 'reserved'
      returning e.org_id, e.created_at, e.reserved_tokens, e.input_tokens + e.output_tokens as spent
    )
    update org_meters m set used = m.used + u.spent, reserved = m.reserved - u.reserved_tokens
      from u where m.org_id = u.org_id and m.month = date_trunc('month', u.created_at at time zone 'UTC')::date`;

/** Releases expired reservations (a process died with chats in flight), a bounded batch at a time. */
const SWEEP_SQL = `with x as (
    update usage_events set state = 'expired', expires_at = null
     where id in (select id from usage_events where not rolled and state = 'reserved' and expires_at < ? limit 1000 for update skip locked)
    returning org_id, created_at, reserved_tokens
  ),
  a as (select org_id, date_trunc('month', created_at at time zone 'UTC')::date as month, sum(reserved_tokens) as released, count(*) as n from x group by 1, 2)
  update org_meters m set reserved = m.reserved - a.released from a where m.org_id = a.org_id and m.month = a.month
  returning a.n`;

type PgConnection = { query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> };

/**
 * Runs the hot-path statements without knex's per-query work (query compilation, bindings, events, result mapping).
 * On PostgreSQL: on a pooled connection as NAMED prepared statements — the server parses and plans each once per
 * connection. On PGlite: as named prepared statements of its one session too (`queryPrepared`: planning was more than
 * half of an admission's time in the worker), queued straight in its worker thread behind the statements already
 * there, instead of waiting for the one knex session to come back between statements; never inside another caller's
 * open transaction.
 */
/** One hot-path statement: its name (a prepared statement's), text and bindings. */
interface Statement {
  readonly name: string;
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

/** Runs a hot-path statement as the named prepared statement `name` (parsed and planned once per connection or worker). */
type Executor = (name: string, sql: string, bindings: readonly unknown[]) => Promise<unknown[]>;

function createExecutor(knex: Knex): Executor {
  const texts = new Map<string, string>();
  const textOf = (name: string, sql: string): string => {
    let text = texts.get(name);
    if (text === undefined) {
      let n = 0;
      text = sql.replace(/\?/g, () => `$${++n}`);
      texts.set(name, text);
    }
    return text;
  };
  const worker = embeddedWorkerOf(knex);
  if (worker) return async (name, sql, bindings) => (await worker.queryPrepared(name, textOf(name, sql), bindings)).rows;
  const client = knex.client as { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<unknown> };
  // The connection of the statement that ended last, kept until the end of the event loop's turn: the statement that
  // follows it at once (the organisation's next admission batch goes out as the previous one returns) runs on it
  // without a trip through the pool (knex's and tarn's acquire: promises, a validation, a timeout timer per acquire),
  // so it leaves in the same turn. Released to the pool once a turn passes without a statement taking it.
  let spare: PgConnection | null = null;
  let spareTaken = false;
  let releaseArmed = false;
  const releaseSpare = (): void => {
    if (spareTaken && spare !== null) {
      spareTaken = false;
      setImmediate(releaseSpare); // still in use under load: look again next turn
      return;
    }
    releaseArmed = false;
    const connection = spare;
    spare = null;
    if (connection) void client.releaseConnection(connection);
  };
  return async (name, sql, bindings) => {
    const text = textOf(name, sql);
    let connection = spare;
    spare = null;
    if (connection) spareTaken = true;
    else connection = await client.acquireConnection();
    let ok = false;
    try {
      const rows = (await connection.query({ name, text, values: [...bindings] })).rows;
      ok = true;
      return rows;
    } finally {
      if (ok && spare === null && !(connection as { __knex__disposed?: unknown }).__knex__disposed) {
        spare = connection;
        if (!releaseArmed) {
          releaseArmed = true;
          setImmediate(releaseSpare);
        }
      } else await client.releaseConnection(connection);
    }
  };
}

const isDeadlock = (err: unknown): boolean => (err as { code?: string })?.code === '40P01';

type AdmissionRow = { key_count: number; session_count: number | null; org_count: number; used: number; reserved: number; admitted: boolean };
type BatchRow = AdmissionRow & { ord: number };

/** Runs a statement again when PostgreSQL chose it as a deadlock's victim (it was rolled back whole). */
async function retryDeadlock<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isDeadlock(err) || attempt >= 3) throw err;
    }
  }
}

/**
 * The `/chat` limiter on PostgreSQL or PGlite. Admission is one statement (one round trip); settling is one statement
 * per batch of chats of an organisation that ended in the same tick, so a busy organisation's row is written once per
 * batch, not once per chat.
 */
export function createPgChatLimiter(knex: Knex, options: PgChatLimiterOptions = {}): ChatLimiter {
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  const maxBatch = options.maxBatch ?? 500;
  let lastSweep = 0;
  const sql = { key: admissionSql(false), session: admissionSql(true), batch: admitBatchSql(false), batchSettling: admitBatchSql(true) };
  const exec = createExecutor(knex);
  // On both databases the waiting settlements ride in the next admission statement of their organisation, and a
  // settlement statement of its own waits settleDelayMs behind another. On PGlite this once measured 435 req/s
  // (2026-11-27): then the settlement's generic plan found its rows through the organisation alone and re-read its
  // month for every row settled; SETTLED_ROWS (the batch's admission times) fixed that plan on both databases, and
  // the embedded database kept a planned settlement statement of its own beside each admission — the planning was
  // most of its time in the worker (EXPLAIN ANALYZE: 0.84–0.93 ms planning, 0.18–0.34 ms execution).
  const settleDelayMs = options.settleDelayMs ?? 10;

  /** A settlement waiting for its statement, since `since` (performance.now()). */
  type Pending = { settlement: ChatSettlement; since: number; resolve: () => void; reject: (err: unknown) => void };
  /** Per organisation: settlements waiting (oldest first), whether a settlement statement runs, and the armed timer. */
  type SettleQueue = { pending: Pending[]; running: boolean; timer: NodeJS.Timeout | null };
  const queues = new Map<string, SettleQueue>();

  /** The statement settling a batch (of one organisation): SETTLE_ONE_SQL for one chat, SETTLE_SQL for more. */
  function settlementStatement(list: readonly ChatSettlement[]): Statement {
    if (list.length === 1) {
      const s = list[0]!;
      return { name: 'kit_chat_settle_one_v1', sql: SETTLE_ONE_SQL, bindings: [s.inputTokens, s.outputTokens, s.refused, s.model, s.orgId, s.admittedAt, s.requestId] };
    }
    const bindings = [list.map((s) => s.requestId), list.map((s) => s.admittedAt), list.map((s) => s.inputTokens), list.map((s) => s.outputTokens), list.map((s) => s.refused), list.map((s) => s.model), ...settledRowsBindings(list)];
    return { name: 'kit_chat_settle_v2', sql: SETTLE_SQL, bindings };
  }

  async function runBatch(batch: Pending[]): Promise<void> {
    const st = settlementStatement(batch.map((p) => p.settlement));
    // Two rows of one organisation (a batch across a month boundary) can meet another batch in the other order: a
    // deadlock, retried.
    await retryDeadlock(() => exec(st.name, st.sql, st.bindings));
  }

  function drainQueue(orgId: string): void {
    const queue = queues.get(orgId);
    if (!queue || queue.running) return;
    const batch = queue.pending.splice(0, maxBatch);
    if (batch.length === 0) {
      if (queue.timer === null) queues.delete(orgId);
      return;
    }
    queue.running = true;
    const span = latencyMarks.span;
    const t0 = span ? performance.now() : 0;
    (span ? runBatch(batch).finally(() => span(`settle:${batch.length}`, t0, performance.now())) : runBatch(batch)).then(
      () => batch.forEach((p) => p.resolve()),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    ).finally(() => {
      queue.running = false;
      if (settleDelayMs > 0) scheduleSettlements(orgId, queue);
      else drainQueue(orgId);
    });
  }

  /**
   * Arms the organisation's timer for the moment its oldest waiting settlement has waited
   * settleDelayMs; then those still waiting (an admission statement took none of them) get a statement of their own,
   * the younger ones with them. Settlements never get a statement before waiting settleDelayMs — also not right after
   * another settlement statement, which would otherwise chain statement after statement under load and take the
   * chats' settlements away from the admission statements that would carry them for free.
   */
  function scheduleSettlements(orgId: string, queue: SettleQueue): void {
    if (queue.running || queue.timer !== null || queues.get(orgId) !== queue) return;
    const oldest = queue.pending[0];
    if (!oldest) {
      queues.delete(orgId);
      return;
    }
    // Never beside an admission statement of the organisation: on PostgreSQL its month row's lock would make the two
    // wait for each other, and the admissions queued behind them too; on PGlite it would be one more round trip to
    // the worker. The admission's return takes them along in the next batch, or schedules them (see runAdmissions).
    // (Only those of the month such a statement takes: a settlement of the month before keeps its timer.)
    if (admitting.has(`${orgId}\u0000${monthOf(oldest.settlement.admittedAt)}`)) return;
    const wait = oldest.since + settleDelayMs - performance.now();
    if (wait <= 0) {
      drainQueue(orgId);
      return;
    }
    queue.timer = setTimeout(() => {
      queue.timer = null;
      scheduleSettlements(orgId, queue);
    }, Math.ceil(wait));
  }

  const sweep = async (now: Date): Promise<number> => {
    let total = 0;
    for (;;) {
      let released: number;
      try {
        const { rows } = (await knex.raw(SWEEP_SQL, [now])) as { rows: Array<{ n: number }> };
        released = rows.reduce((sum, r) => sum + Number(r.n), 0);
      } catch (err) {
        if (isDeadlock(err)) continue;
        throw err;
      }
      total += released;
      if (released < 1000) return total;
    }
  };

  /** One admission, one statement: the first of an organisation and month in this process (it creates the month row). */
  async function admitOne(request: ChatAdmissionRequest, start: Date, end: Date): Promise<ChatAdmission> {
    const { orgId, keyId, sessionId, now, limits, reserveTokens } = request;
    const windows = sessionId === null ? [`chat:key:${keyId}`, start, end] : [`chat:key:${keyId}`, start, end, `chat:session:${sessionId}`, start, end];
    const admitBindings = [limits.orgPerMinute, reserveTokens, limits.monthlyTokens];
    const bindings = [
      ...windows,
      limits.keyPerMinute, limits.sessionPerMinute,
      orgId, monthOf(now), reserveTokens, start, limits.orgPerMinute, reserveTokens, limits.monthlyTokens,
      ...admitBindings, ...admitBindings, reserveTokens,
      orgId, keyId, request.model, request.requestId, now, reserveTokens, request.expiresAt,
    ];
    const rows = (await retryDeadlock(() => (sessionId === null ? exec('kit_chat_admit_v1', sql.key, bindings) : exec('kit_chat_admit_session_v1', sql.session, bindings)))) as AdmissionRow[];
    const row = rows[0]!;
    return {
      admitted: row.admitted === true,
      keyCount: Number(row.key_count),
      sessionCount: row.session_count === null ? null : Number(row.session_count),
      orgCount: Number(row.org_count),
      tokensUsed: Number(row.used),
      tokensReserved: Number(row.reserved),
      windowResetAt: end,
    };
  }

  /** Admissions of one organisation, window and plan that arrived together: one statement, decided in arrival order. */
  async function admitBatch(list: readonly ChatAdmissionRequest[], settling: readonly ChatSettlement[], start: Date, end: Date): Promise<ChatAdmission[]> {
    const first = list[0]!;
    const { orgId, limits } = first;
    const month = monthOf(start);
    const bindings = [
      list.map((r) => `chat:key:${r.keyId}`), list.map((r) => (r.sessionId === null ? null : `chat:session:${r.sessionId}`)), list.map((r) => r.reserveTokens),
      list.map((r) => r.requestId), list.map((r) => r.keyId), list.map((r) => r.now), list.map((r) => r.expiresAt),
      start, end,
      ...(settling.length === 0 ? [] : [
        settling.map((s) => s.requestId), settling.map((s) => s.admittedAt), settling.map((s) => s.inputTokens), settling.map((s) => s.outputTokens), settling.map((s) => s.refused), settling.map((s) => s.model),
        ...settledRowsBindings(settling),
      ]),
      orgId, month, start,
      limits.keyPerMinute, limits.sessionPerMinute, limits.orgPerMinute, limits.monthlyTokens,
      start, orgId, month,
      orgId, first.model,
    ];
    const rows = (await retryDeadlock(() => (settling.length === 0 ? exec('kit_chat_admit_batch_v2', sql.batch, bindings) : exec('kit_chat_admit_settle_batch_v3', sql.batchSettling, bindings)))) as BatchRow[];
    if (rows.length !== list.length) throw new Error(`the month row of organisation ${orgId} is missing: admissions not decided`);
    return rows.map((row) => ({
      admitted: row.admitted === true,
      keyCount: Number(row.key_count),
      sessionCount: row.session_count === null ? null : Number(row.session_count),
      orgCount: Number(row.org_count),
      tokensUsed: Number(row.used),
      tokensReserved: Number(row.reserved),
      windowResetAt: end,
    }));
  }

  /** Takes up to `max` settlements of `orgId` admitted in `month` that wait for their statement (none is running them). */
  function takeSettlements(orgId: string, month: string, max: number): Pending[] {
    const queue = queues.get(orgId);
    if (!queue || queue.pending.length === 0) return [];
    const taken: Pending[] = [];
    queue.pending = queue.pending.filter((p) => {
      if (taken.length >= max || monthOf(p.settlement.admittedAt) !== month) return true;
      taken.push(p);
      return false;
    });
    return taken;
  }

  type PendingAdmission = { request: ChatAdmissionRequest; resolve: (a: ChatAdmission) => void; reject: (err: unknown) => void };
  /** Per organisation, window, month and limits: whether a statement is in the database, and who waits behind it. */
  const admissions = new Map<string, { pending: PendingAdmission[]; running: boolean; start: Date; end: Date }>();
  /** Organisations and months whose month row this process has seen written (a batch needs it). */
  const knownMonths = new Set<string>();
  /** Per organisation and month (`knownMonths`' key), its admission statements in the database now. */
  const admitting = new Map<string, number>();

  function runAdmissions(group: string): void {
    const queue = admissions.get(group);
    if (!queue || queue.running) return;
    const batch = queue.pending.splice(0, maxBatch);
    if (batch.length === 0) {
      admissions.delete(group);
      return;
    }
    queue.running = true;
    const tr = latencyMarks.mark;
    if (tr) {
      const now = performance.now();
      for (const p of batch) tr(p.request.requestId, 'sent', now), tr(p.request.requestId, 'batch', batch.length);
    }
    const orgId = batch[0]!.request.orgId;
    const month = monthOf(queue.start);
    const monthKey = `${orgId}\u0000${month}`;
    // The organisation's settlements of this month that wait for their statement go with this one: on PostgreSQL in
    // the statement itself (see ADMIT_BATCH_SQL), on both databases: one statement (on PGlite one message to the worker
    // and back) for both ends of the organisation's chats.
    const settling = knownMonths.has(monthKey) ? takeSettlements(orgId, month, maxBatch) : [];
    const settled = (err: unknown): void => settling.forEach((p) => (err === null ? p.resolve() : p.reject(err)));
    const work = !knownMonths.has(monthKey) || (batch.length === 1 && settling.length === 0)
      ? Promise.all(batch.map((p) => admitOne(p.request, queue.start, queue.end)))
      : admitBatch(batch.map((p) => p.request), settling.map((p) => p.settlement), queue.start, queue.end);
    // The next batch (the requests that arrived meanwhile) goes out before this one's requests go on with their
    // chats: its statement is on its way while they are answered.
    admitting.set(monthKey, (admitting.get(monthKey) ?? 0) + 1);
    const next = (): void => {
      queue.running = false;
      const left = admitting.get(monthKey)! - 1;
      if (left > 0) admitting.set(monthKey, left);
      else admitting.delete(monthKey);
      runAdmissions(group);
      // Settlements left waiting (no batch followed to take them, or it took them all): their own statement once
      // they have waited settleDelayMs and no admission statement of the organisation is in the database.
      const settleQueue = queues.get(orgId);
      if (settleQueue && settleQueue.timer === null) scheduleSettlements(orgId, settleQueue);
    };
    work.then(
      (results) => {
        if (tr) {
          const now = performance.now();
          for (const p of batch) tr(p.request.requestId, 'back', now), tr(p.request.requestId, 'settling', settling.length);
        }
        knownMonths.add(monthKey);
        next();
        batch.forEach((p, i) => p.resolve(results[i]!));
        settled(null);
      },
      (err: unknown) => {
        next();
        batch.forEach((p) => p.reject(err));
        settled(err);
      },
    );
  }

  return {
    /**
     * The first admission of an organisation goes to the database at once; those that arrive while it is there wait
     * and then go together, in one statement (their organisation's month row serialises them in the database anyway).
     */
    admit(request) {
      const t = request.now.getTime();
      const start = new Date(Math.floor(t / WINDOW_MS) * WINDOW_MS);
      const end = new Date(start.getTime() + WINDOW_MS);
      if (t - lastSweep >= sweepEveryMs) {
        lastSweep = t;
        // Off the request path: expired window counters, and reservations whose process died.
        knex('rate_limits').where('expires_at', '<', request.now).delete().catch((err: unknown) => options.onSweepError?.(err));
        sweep(request.now).catch((err: unknown) => options.onSweepError?.(err));
      }
      const { limits } = request;
      const group = `${request.orgId}\u0000${start.getTime()}\u0000${limits.keyPerMinute}\u0000${limits.sessionPerMinute}\u0000${limits.orgPerMinute}\u0000${limits.monthlyTokens}\u0000${request.model}`;
      return new Promise<ChatAdmission>((resolve, reject) => {
        let queue = admissions.get(group);
        if (!queue) admissions.set(group, (queue = { pending: [], running: false, start, end }));
        latencyMarks.mark?.(request.requestId, 'queued');
        queue.pending.push({ request, resolve, reject });
        runAdmissions(group);
      });
    },

    settle(settlement) {
      return new Promise<void>((resolve, reject) => {
        let queue = queues.get(settlement.orgId);
        if (!queue) queues.set(settlement.orgId, (queue = { pending: [], running: false, timer: null }));
        queue.pending.push({ settlement, since: performance.now(), resolve, reject });
        // Wait a little (settleDelayMs, scheduleSettlements) for an admission statement of the organisation to take
        // it along — a client's next request does, settling it before it is decided — or for the chats ending meanwhile
        // to share a statement of their own.
        const idle = queue.pending.length === 1 && !queue.running && queue.timer === null;
        // An admission statement of the organisation is in the database: the next one takes it along, or its return
        // schedules it (scheduleSettlements).
        if (admitting.has(`${settlement.orgId}\u0000${monthOf(settlement.admittedAt)}`)) return;
        if (settleDelayMs > 0) scheduleSettlements(settlement.orgId, queue);
        else if (idle) setImmediate(() => drainQueue(settlement.orgId));
      });
    },

    sweep,
  };
}
