import type { Knex } from 'knex';
import { embeddedWorkerOf } from './knex-database.js';

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
  /** Counts the request in its windows and, when all allow it, reserves `reserveTokens` against the month — one statement. */
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
 * ONE statement per batch of settlements (of one organisation): the usage rows still `reserved` take their real
 * figures, and the organisation's month row moves those rows' reservations into `used`. A row already settled or
 * released by the sweep is skipped, so settling twice changes nothing. The batch comes as arrays (one statement
 * text for any batch size, so PostgreSQL prepares it once).
 */
const SETTLE_SQL = `with v (request_id, created_at, input_tokens, output_tokens, refused, model) as (
      select * from unnest(cast(? as text[]), cast(? as timestamptz[]), cast(? as int[]), cast(? as int[]), cast(? as boolean[]), cast(? as text[]))
    ),
    u as (
      update usage_events e set input_tokens = v.input_tokens, output_tokens = v.output_tokens, refused = v.refused,
             model = v.model, state = 'settled', expires_at = null
        from v where e.org_id = cast(? as text) and e.created_at = v.created_at and e.request_id = v.request_id and e.state = 'reserved'
      returning e.org_id, e.created_at, e.reserved_tokens, e.input_tokens + e.output_tokens as spent
    ),
    a as (
      select org_id, date_trunc('month', created_at at time zone 'UTC')::date as month, sum(spent) as spent, sum(reserved_tokens) as released
        from u group by 1, 2
    )
    update org_meters m set used = m.used + a.spent, reserved = m.reserved - a.released
      from a where m.org_id = a.org_id and m.month = a.month`;

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
function createExecutor(knex: Knex): (name: string, sql: string, bindings: readonly unknown[], embedded?: 'prepared' | 'planned') => Promise<unknown[]> {
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
  if (worker) {
    return async (name, sql, bindings, embedded = 'prepared') =>
      (embedded === 'prepared' ? await worker.queryPrepared(name, textOf(name, sql), bindings) : await worker.queryAutocommit(textOf(name, sql), bindings)).rows;
  }
  const client = knex.client as { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<unknown> };
  return async (name, sql, bindings) => {
    const text = textOf(name, sql);
    const connection = await client.acquireConnection();
    try {
      return (await connection.query({ name, text, values: [...bindings] })).rows;
    } finally {
      await client.releaseConnection(connection);
    }
  };
}

const isDeadlock = (err: unknown): boolean => (err as { code?: string })?.code === '40P01';

type AdmissionRow = { key_count: number; session_count: number | null; org_count: number; used: number; reserved: number; admitted: boolean };

/**
 * The `/chat` limiter on PostgreSQL or PGlite. Admission is one statement (one round trip); settling is one statement
 * per batch of chats of an organisation that ended in the same tick, so a busy organisation's row is written once per
 * batch, not once per chat.
 */
export function createPgChatLimiter(knex: Knex, options: PgChatLimiterOptions = {}): ChatLimiter {
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  const maxBatch = options.maxBatch ?? 500;
  let lastSweep = 0;
  const sql = { key: admissionSql(false), session: admissionSql(true) };
  const exec = createExecutor(knex);

  type Pending = { settlement: ChatSettlement; resolve: () => void; reject: (err: unknown) => void };
  const queues = new Map<string, { pending: Pending[]; running: boolean }>();

  async function runBatch(batch: Pending[]): Promise<void> {
    const list = batch.map((p) => p.settlement);
    const bindings = [list.map((s) => s.requestId), list.map((s) => s.admittedAt), list.map((s) => s.inputTokens), list.map((s) => s.outputTokens), list.map((s) => s.refused), list.map((s) => s.model), list[0]!.orgId];
    for (let attempt = 1; ; attempt++) {
      try {
        // Planned for each batch on PGlite (not prepared): there a prepared settlement (a batch of unknown size from
        // arrays) measured slower than planning each batch for its own arrays (2.4 vs 1.6 ms for 4 chats).
        await exec('kit_chat_settle_v1', SETTLE_SQL, bindings, 'planned');
        return;
      } catch (err) {
        // Two rows of one organisation (a batch across a month boundary) can meet another batch in the other order.
        if (!isDeadlock(err) || attempt >= 3) throw err;
      }
    }
  }

  function drainQueue(orgId: string): void {
    const queue = queues.get(orgId);
    if (!queue || queue.running) return;
    const batch = queue.pending.splice(0, maxBatch);
    if (batch.length === 0) {
      queues.delete(orgId);
      return;
    }
    queue.running = true;
    runBatch(batch).then(
      () => batch.forEach((p) => p.resolve()),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    ).finally(() => {
      queue.running = false;
      drainQueue(orgId);
    });
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

  return {
    async admit(request) {
      const { orgId, keyId, sessionId, now, limits, reserveTokens } = request;
      const t = now.getTime();
      const start = new Date(Math.floor(t / WINDOW_MS) * WINDOW_MS);
      const end = new Date(start.getTime() + WINDOW_MS);
      if (t - lastSweep >= sweepEveryMs) {
        lastSweep = t;
        // Off the request path: expired window counters, and reservations whose process died.
        knex('rate_limits').where('expires_at', '<', now).delete().catch((err: unknown) => options.onSweepError?.(err));
        sweep(now).catch((err: unknown) => options.onSweepError?.(err));
      }
      const windows = sessionId === null ? [`chat:key:${keyId}`, start, end] : [`chat:key:${keyId}`, start, end, `chat:session:${sessionId}`, start, end];
      const admitBindings = [limits.orgPerMinute, reserveTokens, limits.monthlyTokens];
      const bindings = [
        ...windows,
        limits.keyPerMinute, limits.sessionPerMinute,
        orgId, monthOf(now), reserveTokens, start, limits.orgPerMinute, reserveTokens, limits.monthlyTokens,
        ...admitBindings, ...admitBindings, reserveTokens,
        orgId, keyId, request.model, request.requestId, now, reserveTokens, request.expiresAt,
      ];
      const rows = (await (sessionId === null ? exec('kit_chat_admit_v1', sql.key, bindings) : exec('kit_chat_admit_session_v1', sql.session, bindings))) as AdmissionRow[];
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
    },

    settle(settlement) {
      return new Promise<void>((resolve, reject) => {
        let queue = queues.get(settlement.orgId);
        if (!queue) queues.set(settlement.orgId, (queue = { pending: [], running: false }));
        queue.pending.push({ settlement, resolve, reject });
        // Wait one tick so the chats ending together share a statement.
        if (queue.pending.length === 1 && !queue.running) setImmediate(() => drainQueue(settlement.orgId));
      });
    },

    sweep,
  };
}
