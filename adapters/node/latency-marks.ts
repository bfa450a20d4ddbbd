/**
 * The hooks of /chat's latency trace (server/http/latency-trace.ts fills them when KIT_LATENCY_TRACE names a file;
 * null otherwise, so a mark costs one check). Here, not in server/, because the chat limiter marks too and adapters
 * never import server code.
 */
export const latencyMarks: {
  /** A named moment (or, with `value`, a number) of one request, by its request id. */
  mark: ((requestId: string, name: string, value?: number) => void) | null;
  /** A named span of work not tied to one request (a settlement batch's statement). */
  span: ((name: string, t0: number, t1: number) => void) | null;
} = { mark: null, span: null };
