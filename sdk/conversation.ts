import type { Citation } from '../core/sources.js';

/** One message of a kept thread. */
export interface ThreadMessage {
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly citations?: readonly Citation[];
  readonly refused?: boolean;
  /** The answer's id, for feedback after a reload. */
  readonly id?: string;
  /** The owner's contact address shown with a refusal. */
  readonly contact?: string | null;
}

/** A conversation: its id (sent to the service with each question) and its messages, oldest first. */
export interface Thread {
  readonly id: string;
  readonly messages: readonly ThreadMessage[];
}

/** Where the thread is kept between page views. */
export interface ThreadStore {
  load(): Thread | null;
  save(thread: Thread): void;
  clear(): void;
}

/** Messages kept (oldest dropped first), and the largest stored thread in characters. */
export const MAX_KEPT_MESSAGES = 40;
export const MAX_KEPT_CHARS = 200_000;
/** A thread kept with `persist: 'local'` is forgotten after this long without a new message. */
export const LOCAL_TTL_MS = 7 * 24 * 3600 * 1000;

/** A new conversation id, the shape the service accepts (`cnv_` and 24 letters or digits). */
export function newConversationId(): string {
  const a = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let id = 'cnv_';
  for (const b of crypto.getRandomValues(new Uint8Array(24))) id += a[b % 62];
  return id;
}

/**
 * The thread in sessionStorage (this tab: survives reloads and navigation within the site, ends with the tab),
 * localStorage (this browser, for LOCAL_TTL_MS) or nowhere. Storage that is full, disabled or blocked (private
 * modes, sandboxed frames) degrades to 'none' silently: the conversation still works, it is just not kept.
 */
export function createThreadStore(persist: 'session' | 'local' | 'none', apiKey: string): ThreadStore {
  const key = `kit:thread:${apiKey.slice(-12)}`;
  let storage: Storage | null = null;
  try {
    storage = persist === 'none' ? null : persist === 'local' ? localStorage : sessionStorage;
  } catch {
    storage = null;
  }
  return {
    load() {
      try {
        const raw = storage?.getItem(key);
        if (!raw) return null;
        const v = JSON.parse(raw) as { id?: unknown; at?: unknown; messages?: unknown };
        if (typeof v.id !== 'string' || !/^cnv_[0-9A-Za-z]{8,64}$/.test(v.id) || !Array.isArray(v.messages)) return null;
        if (persist === 'local' && !(typeof v.at === 'number' && Date.now() - v.at < LOCAL_TTL_MS)) {
          storage?.removeItem(key);
          return null;
        }
        const messages = v.messages.filter((m): m is ThreadMessage =>
          !!m && (m.role === 'user' || m.role === 'assistant') && typeof m.text === 'string');
        return { id: v.id, messages };
      } catch {
        return null;
      }
    },
    save(thread) {
      if (!storage) return;
      let messages = thread.messages.slice(-MAX_KEPT_MESSAGES);
      let raw = '';
      // Drop the oldest turns until the thread fits (a visitor pasting huge questions must not fill the quota).
      for (;;) {
        raw = JSON.stringify({ id: thread.id, at: Date.now(), messages });
        if (raw.length <= MAX_KEPT_CHARS || messages.length <= 1) break;
        messages = messages.slice(2);
      }
      try {
        storage.setItem(key, raw);
      } catch {
        /* full or blocked: not kept */
      }
    },
    clear() {
      try {
        storage?.removeItem(key);
      } catch {
        /* blocked */
      }
    },
  };
}
