/**
 * A mixed write load (signups, key creations, chats) that keeps a ledger of every write the server acknowledged,
 * and of the requests still in flight when it was stopped — what the checks after a SIGKILL compare the database to.
 */

/** What the server acknowledged (a 2xx answer received in full). */
export interface Ledger {
  readonly signups: Array<{ userId: string; orgId: string; email: string; token: string }>;
  readonly keys: Array<{ id: string; orgId: string; secret: string }>;
  readonly chats: Array<{ requestId: string; orgId: string; keyId: string }>;
  /** Requests sent whose answer never came (the kill cut them): they may or may not have written. */
  readonly unacknowledged: { signups: number; keys: number; chats: number };
  /** Answers that were neither 2xx nor a network failure, by status: a load this simple should get none. */
  readonly refused: Record<string, number>;
}

export function emptyLedger(): Ledger {
  return { signups: [], keys: [], chats: [], unacknowledged: { signups: 0, keys: 0, chats: 0 }, refused: {} };
}

const PASSAGES = [
  'The Pro plan costs 20 dollars per month and includes unlimited projects and priority support.',
  'Standard shipping takes three to five business days; express shipping arrives the next day for 12 dollars.',
  'Returns are accepted within 30 days of delivery when the item is unused and in its original packaging.',
  'The Summit membership costs 49 dollars per year and gives 10 percent off all gear and one free repair.',
];
const QUESTIONS = ['How much does the Pro plan cost per month?', 'How long does standard shipping take?', 'Within how many days are returns accepted?', 'How much is the Summit membership per year?'];

/** Options of one load run. */
export interface LoadOptions {
  readonly url: string;
  readonly ledger: Ledger;
  readonly random: () => number;
  /** Concurrent clients. */
  readonly concurrency: number;
  /** Labels emails, so runs never collide. */
  readonly label: string;
}

/** A running load: `stop()` ends the loops (after the kill) and resolves once every client has its answer or error. */
export interface RunningLoad {
  /** Requests answered so far. */
  readonly completed: () => number;
  stop(): Promise<void>;
}

let emailCounter = 0;

/** Starts `concurrency` clients, each looping over a signup, a key creation or a chat (JSON mode, secret key). */
export function startLoad(options: LoadOptions): RunningLoad {
  const { url, ledger, random } = options;
  let running = true;
  let completed = 0;
  const api = `${url}/v1`;

  async function call(kind: keyof Ledger['unacknowledged'], path: string, init: RequestInit): Promise<{ status: number; headers: Headers; body: Record<string, unknown> } | null> {
    try {
      const res = await fetch(`${api}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      completed += 1;
      if (res.status >= 300) ledger.refused[`${kind} ${res.status}`] = (ledger.refused[`${kind} ${res.status}`] ?? 0) + 1;
      return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    } catch {
      ledger.unacknowledged[kind] += 1; // connection reset / refused: the kill, or the restart not yet listening
      return null;
    }
  }

  async function signup(): Promise<void> {
    const email = `${options.label}-${process.pid}-${emailCounter++}@chaos.test`;
    const res = await call('signups', '/auth/signup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'chaos password 1', organization_name: 'Chaos Co' }) });
    if (res?.status !== 201) return;
    const body = res.body as { token: string; user: { id: string }; organization: { id: string } };
    ledger.signups.push({ userId: body.user.id, orgId: body.organization.id, email, token: body.token });
  }

  async function key(): Promise<void> {
    const owner = ledger.signups[Math.floor(random() * ledger.signups.length)];
    if (!owner) return signup();
    const res = await call('keys', '/keys', { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'secret', name: 'chaos' }) });
    if (res?.status !== 201) return;
    const body = res.body as { key: { id: string }; secret: string };
    ledger.keys.push({ id: body.key.id, orgId: owner.orgId, secret: body.secret });
  }

  async function chat(): Promise<void> {
    const k = ledger.keys[Math.floor(random() * ledger.keys.length)];
    if (!k) return key();
    const i = Math.floor(random() * PASSAGES.length);
    const res = await call('chats', '/chat', {
      method: 'POST',
      headers: { authorization: `Bearer ${k.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: false, messages: [{ role: 'user', content: QUESTIONS[i] }], sources: [{ url: `https://shop.example/${i}`, title: `Page ${i}`, text: PASSAGES[i] }] }),
    });
    if (res?.status !== 200) return;
    ledger.chats.push({ requestId: String(res.body.id), orgId: k.orgId, keyId: k.id });
  }

  const clients = Array.from({ length: options.concurrency }, async () => {
    while (running) {
      const r = random();
      await (r < 0.25 ? signup() : r < 0.5 ? key() : chat());
    }
  });
  return {
    completed: () => completed,
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}
