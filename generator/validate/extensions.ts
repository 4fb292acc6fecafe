/**
 * avaspec's specification extensions: the IR builders read them as checked
 * here, so a malformed value is a diagnostic, never a silent default.
 */
import * as ptr from "../load/pointer.js";

type Report = (code: string, pointer: string, message: string, hint?: string) => void;

/** `x-avaspec-idempotent` on an operation or method: a boolean, when present. */
export function checkIdempotent(node: Record<string, unknown>, at: string, report: Report): void {
  const v = node["x-avaspec-idempotent"];
  if (v !== undefined && typeof v !== "boolean") report("extension/idempotent", ptr.join(at, "x-avaspec-idempotent"), `x-avaspec-idempotent must be true or false, got ${JSON.stringify(v)}`);
}

/** `x-avaspec-token-lifetime` on a page-token parameter: whole seconds above 0, when present. */
export function checkTokenLifetime(node: Record<string, unknown>, at: string, report: Report): void {
  const v = node["x-avaspec-token-lifetime"];
  if (v !== undefined && !(Number.isInteger(v) && (v as number) > 0)) {
    report("extension/token-lifetime", ptr.join(at, "x-avaspec-token-lifetime"), `x-avaspec-token-lifetime must be a whole number of seconds above 0, got ${JSON.stringify(v)}`, "e.g. 86400 for tokens that expire after 24 hours");
  }
}
