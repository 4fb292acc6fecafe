/**
 * Values nested deeper than the call stack allows. The generated validators
 * and integer walkers recurse once per level of the value they check, and so
 * do the engine's `JSON.stringify` and `structuredClone`: a body nested some
 * thousands of levels deep (a server's, a caller's, or a value that holds
 * itself) overflows the stack, a RangeError in V8 and JavaScriptCore, an
 * InternalError in SpiderMonkey. Rather than rewrite every generated walk
 * without recursion, each runtime entry point that runs one catches the
 * overflow here and reports it as a validation issue, so that every error a
 * caller sees stays an `AvaspecError`. The issue does not say how deep the
 * value nests: measuring it would cost every bundle a walker of its own.
 */
import { ValidationError, type RequestInfo, type ValidationIssue } from "./errors.js";

/** Whether `error` is the engine running out of stack. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof Error && (error.name === "RangeError" || error.name === "InternalError") && /call stack|recursion/i.test(error.message);
}

/**
 * For a `catch` around a recursive walk of a value at `path`: the `depth`
 * issue when `error` is a stack overflow; any other error is rethrown as it was.
 */
export function overflowIssue(error: unknown, path: string, what = "checked"): ValidationIssue {
  if (!isStackOverflow(error)) throw error;
  return { path, message: `nests deeper than can be ${what} here, or holds itself`, keyword: "depth" };
}

/**
 * What a call throws for `error`: the ValidationError of the call when a
 * walk of one of its values ran out of stack, else `error` as it was. The
 * transports convert at their few entry points rather than around each walk,
 * which keeps the code every bundle carries small.
 */
export function overflowError(error: unknown, request: RequestInfo): unknown {
  return isStackOverflow(error) ? new ValidationError(`${request.operationId}: a value nests deeper than can be checked, read or written, or holds itself`, { request, issues: [overflowIssue(error, "")] }) : error;
}
