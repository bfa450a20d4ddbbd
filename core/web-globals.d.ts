/**
 * The few web-standard globals core relies on. Browsers, Node ≥ 18, Deno and workers all provide them,
 * so core stays portable without pulling in DOM or Node typings (see STYLE.md, "Core is a library").
 * Only core/tsconfig.json includes this file; the root tsconfig sees the real DOM/Node declarations instead.
 */
declare global {
  interface URLSearchParams {
    get(name: string): string | null;
    has(name: string): boolean;
    toString(): string;
  }
  interface URL {
    hash: string;
    host: string;
    hostname: string;
    href: string;
    readonly origin: string;
    password: string;
    pathname: string;
    port: string;
    protocol: string;
    search: string;
    readonly searchParams: URLSearchParams;
    username: string;
    toString(): string;
  }
  var URL: { prototype: URL; new (url: string, base?: string | URL): URL; canParse?(url: string, base?: string): boolean };

  interface TextEncoder { encode(input?: string): Uint8Array }
  var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
  interface TextDecoder { decode(input?: Uint8Array, options?: { stream?: boolean }): string }
  var TextDecoder: { prototype: TextDecoder; new (label?: string, options?: { fatal?: boolean }): TextDecoder };

  interface AbortSignal {
    readonly aborted: boolean;
    readonly reason: unknown;
    addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
    removeEventListener(type: 'abort', listener: () => void): void;
    throwIfAborted(): void;
  }
  interface AbortController { readonly signal: AbortSignal; abort(reason?: unknown): void }
  var AbortController: { prototype: AbortController; new (): AbortController };

  function setTimeout(handler: () => void, timeout?: number): unknown;
  function clearTimeout(id: unknown): void;
}
export {};
