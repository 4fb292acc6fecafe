/**
 * From the agent's snippet to the programs the engine tries, in order.
 *
 * A snippet is the body of an async function; one that is a single
 * expression returns its value without a `return`. Rather than parse the
 * snippet to tell the two apart, both wrappings are offered: the expression
 * form first (it only compiles when the snippet is one expression), then the
 * body form. Types are stripped by sucrase (ADR 0020) from the wrapped text,
 * so `return` and `await` are where TypeScript expects them.
 *
 * Each wrapper's opening stays on the snippet's first line: line numbers in
 * errors are the snippet's own.
 */
import { transform } from "sucrase";

/** The file name errors and stack traces inside the sandbox show for the snippet. */
export const SNIPPET_FILE = "snippet.ts";

const EXPRESSION = { open: "(async () => (", close: "\n))()" };
const BODY = { open: "(async () => {", close: "\n})()" };
/** Characters the wrappers add before the snippet's first line (both openings are as long). */
export const WRAPPER_OPENING = BODY.open.length;

export type Candidates =
  | { ok: true; programs: string[] }
  | { ok: false; message: string; location?: { line: number; column: number } };

interface SucraseError {
  message?: unknown;
  loc?: { line?: unknown; column?: unknown };
}

function strip(code: string): string {
  // keepUnusedImports: an `import` line stays and fails to compile, rather than vanishing unnoticed
  return transform(code, { transforms: ["typescript"], disableESTransforms: true, keepUnusedImports: true }).code;
}

/** The programs to try, expression form first, each evaluating to the snippet's promise. */
export function candidates(source: string): Candidates {
  const programs: string[] = [];
  const expression = source.replace(/[\s;]+$/, "");
  if (expression.trim() !== "") {
    try {
      programs.push(strip(EXPRESSION.open + expression + EXPRESSION.close));
    } catch {
      // not a single expression (or not valid at all: the body form says why)
    }
  }
  try {
    programs.push(strip(BODY.open + source + BODY.close));
  } catch (error) {
    if (programs.length > 0) return { ok: true, programs };
    const { message, loc } = error as SucraseError;
    const text = String(message ?? error).replace(/ \(\d+:\d+\)$/, "");
    const line = typeof loc?.line === "number" ? loc.line : undefined;
    const column = typeof loc?.column === "number" ? loc.column : undefined;
    if (line === undefined || column === undefined) return { ok: false, message: text };
    return { ok: false, message: text, location: { line, column: line === 1 ? Math.max(1, column - WRAPPER_OPENING) : column } };
  }
  return { ok: true, programs };
}
