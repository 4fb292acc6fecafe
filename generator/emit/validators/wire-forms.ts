/**
 * Validators for `x-avaspec-wire-form`: the check of a schema that servers
 * send in another JSON type is its documented check, or, in a response, the
 * wire form's check and the documented check of the converted value
 * (runtime `wired`, which also collects the issues of a failing value).
 * The walker that converts results to the documented form is an integer
 * walker whose leaves are the wire forms (`wireLeaf`).
 */
import { RawText } from "../../print.js";
import type { IrSchema } from "../../ir/types.js";
import { stringLiteral } from "../escape.js";

/** What the wrapper needs of the compiler. */
interface Compiler {
  check(s: IrSchema): string;
  readonly helpers: Set<string>;
}

/** The runtime helpers of wire forms (imported from runtime/values/wire-forms.js, not validate.js). */
export const WIRE_FORM_HELPERS: ReadonlySet<string> = new Set(["wired", "normalizer", "normalized"]);

/** The leaf spec of a schema's wire form for the runtime ("number>string": the server's type, then the documented one). */
export function wireLeaf(s: IrSchema): string | undefined {
  const form = s.wireForm;
  return form?.from !== undefined && form.to !== undefined ? `${form.from}>${form.to}` : undefined;
}

/** The check function `fn` of a schema that declares a wire form. */
export function wireFormCheck(compiler: Compiler, fn: string, s: IrSchema): RawText {
  const form = s.wireForm!;
  const documented = compiler.check({ ...s, wireForm: undefined } as IrSchema);
  const wire = compiler.check(form.schema);
  compiler.helpers.add("wired");
  const spec = stringLiteral(wireLeaf(s)!);
  return new RawText(`function ${fn}(x, p, e) {\n  return ${documented}(x, p, null) || wired(x, p, e, ${wire}, ${documented}, ${spec});\n}\n`);
}
