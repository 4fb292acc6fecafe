/**
 * The error responses an HTTP operation declares: what its calls throw as
 * ApiErrors with a typed body. Every response that is not a 2XX, less the
 * non-2XX statuses whose body is the result itself (a health check's 503,
 * returned, not thrown); `default` is one of them even where it also
 * describes the 2XX answer (no 2XX declared), since it then covers every
 * status. The client's error types, its guards and the descriptors'
 * `returns` read this one answer.
 */
import { successBodies } from "./results.js";
import type { IrHttpOperation, IrResponse } from "./types.js";

/** Non-2XX statuses that carry the very schema of a 2XX body: results, not errors. */
export function returnedStatuses(op: IrHttpOperation): number[] {
  const ok = successBodies(op).filter((s) => s.kind === "ref").map((s) => (s as { target: string }).target);
  return op.responses
    .filter((r) => !r.success && /^\d{3}$/.test(r.status))
    .filter((r) => {
      const s = r.content[0]?.schema;
      return s?.kind === "ref" && ok.includes(s.target);
    })
    .map((r) => Number(r.status));
}

/**
 * The responses whose statuses the operation's calls throw with, in the
 * spec's order: `default`, and the codes and ranges from 300 to 599 (fetch
 * hands over no 1XX, and a 2XX is an answer).
 */
export function errorResponses(op: IrHttpOperation): IrResponse[] {
  const returned = returnedStatuses(op);
  return op.responses.filter((r) => r.status === "default" || (/^[345](\d\d|XX)$/i.test(r.status) && !returned.includes(Number(r.status))));
}
