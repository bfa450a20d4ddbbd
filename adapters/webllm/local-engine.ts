/** Model download/compile progress as Kit reports it: `loaded / total` is the share done (total is 1). */
export interface LoadProgress {
  readonly loaded: number;
  readonly total: number;
  /** WebLLM's human-readable status line (no page content). */
  readonly text: string;
}

/** One streamed chunk of an OpenAI-style chat completion, as WebLLM yields it. */
export interface ChatChunk {
  readonly choices: ReadonlyArray<{ readonly delta?: { readonly content?: string | null }; readonly finish_reason?: string | null }>;
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number } | null;
}

export interface ChatRequest {
  readonly messages: ReadonlyArray<{ readonly role: 'system' | 'user' | 'assistant'; readonly content: string }>;
  readonly stream: true;
  readonly stream_options: { readonly include_usage: true };
  readonly max_tokens: number;
  readonly temperature: number;
}

/** The part of WebLLM's `MLCEngine` Kit uses; a fake engine can stand in for it in tests. */
export interface LocalChatEngine {
  readonly chat: { readonly completions: { create(request: ChatRequest): Promise<AsyncIterable<ChatChunk>> } };
  /** Stops the generation that is running now (WebLLM: `engine.interruptGenerate()`). */
  interruptGenerate(): unknown;
  /** Frees the model's GPU memory. */
  unload(): Promise<void>;
}

/** Loads `modelId` into a ready engine; must stop (and reject) when `signal` aborts. */
export type EngineLoader = (modelId: string, context: { readonly signal: AbortSignal; readonly onProgress: (progress: LoadProgress) => void }) => Promise<LocalChatEngine>;
