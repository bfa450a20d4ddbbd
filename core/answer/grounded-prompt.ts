import type { InferenceRequest } from '../ports/inference.port.js';

/** A chat message in the shape WebLLM's (OpenAI-style) chat completions take. */
export interface PromptMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface PromptBudget {
  /** The model's context window in tokens. */
  readonly contextWindowTokens: number;
  /** Tokens kept free for the answer. */
  readonly maxOutputTokens: number;
}

/**
 * Characters per token assumed when trimming. Real tokenizers give ~4 for English prose and 2–3 for other scripts
 * or numbers; 3 errs towards a prompt that fits (WebLLM fails a request that overflows its window).
 */
export const CHARS_PER_TOKEN = 3;
/** Tokens reserved for the instructions, chat-template tokens and source headers. */
export const PROMPT_OVERHEAD_TOKENS = 300;
/** At most this share of the prompt budget goes to earlier turns; sources matter more. */
export const HISTORY_SHARE = 0.25;

const INSTRUCTIONS = [
  'You answer questions about a website using only the numbered sources below.',
  'After each statement, cite the source it comes from with its number in square brackets, like [1] or [2].',
  'If the sources do not contain the answer, say that you do not know. Do not use outside knowledge.',
  'Answer briefly, in the language of the question.',
].join(' ');

/**
 * Builds the grounded chat prompt: instructions plus the sources numbered [1]..[n] (in request order, so citation
 * indexes match), the most recent earlier turns, then the question. Sources and turns are trimmed to fit the window.
 */
export function buildGroundedMessages(request: InferenceRequest, budget: PromptBudget): PromptMessage[] {
  const owner = ownerInstructions(request.instructions);
  // The owner's instructions come out of the sources' share, so the prompt still fits the window.
  const totalChars = Math.max(0, (budget.contextWindowTokens - budget.maxOutputTokens - PROMPT_OVERHEAD_TOKENS) * CHARS_PER_TOKEN - request.question.length - owner.length);

  const history: PromptMessage[] = [];
  let historyChars = 0;
  for (let i = request.history.length - 1; i >= 0; i--) {
    const turn = request.history[i]!;
    if (historyChars + turn.content.length > totalChars * HISTORY_SHARE) break;
    history.unshift({ role: turn.role, content: turn.content });
    historyChars += turn.content.length;
  }
  // Chat templates expect a user turn right after the system message.
  while (history[0]?.role === 'assistant') history.shift();

  const limits = shareBudget(request.sources.map((s) => s.text.length), totalChars - historyChars);
  const blocks = request.sources.map((s, i) => `[${i + 1}] ${s.title || s.url}\nURL: ${s.url}\n${trimText(s.text, limits[i]!)}`);
  const system = `${INSTRUCTIONS}${owner}\n\nSources:\n\n${blocks.length ? blocks.join('\n\n') : '(none)'}`;
  return [{ role: 'system', content: system }, ...history, { role: 'user', content: request.question }];
}

/** Longest owner instructions kept in the prompt (the settings API caps them at the same length). */
export const MAX_OWNER_INSTRUCTIONS_CHARS = 2_000;

/**
 * The site owner's instructions (assistant settings, issue 13), placed after Kit's rules and framed as subordinate to
 * them: they may shape tone and format, never the sources-only rule, the citations or the refusal.
 */
function ownerInstructions(text: string | null | undefined): string {
  const trimmed = text?.trim().slice(0, MAX_OWNER_INSTRUCTIONS_CHARS);
  if (!trimmed) return '';
  return `\n\nThe site owner adds these instructions. Follow them only where they agree with the rules above; the rules above always win:\n${trimmed}`;
}

/** Splits `budget` characters over texts of the given lengths: short texts keep everything, long ones share the rest. */
function shareBudget(lengths: readonly number[], budget: number): number[] {
  const limits = lengths.map(() => 0);
  let left = Math.max(0, budget);
  let open = lengths.map((_, i) => i);
  while (open.length && left > 0) {
    const share = Math.floor(left / open.length);
    const fits = open.filter((i) => lengths[i]! - limits[i]! <= share);
    if (!fits.length) {
      for (const i of open) limits[i] = limits[i]! + share;
      break;
    }
    for (const i of fits) {
      left -= lengths[i]! - limits[i]!;
      limits[i] = lengths[i]!;
    }
    open = open.filter((i) => !fits.includes(i));
  }
  return limits;
}

function trimText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const space = cut.lastIndexOf(' ');
  return `${space > limit * 0.8 ? cut.slice(0, space) : cut}…`;
}
