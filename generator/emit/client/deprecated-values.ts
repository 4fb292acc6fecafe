/**
 * The client side of `x-avaspec-deprecated-values`: a module constant per
 * deprecated value (its value and notice), and on the descriptor of each
 * operation whose params can carry one a watch, `valueNotices([[notice,
 * paths]…])`, which the transports run before sending. Operations without
 * such values get nothing, so their bundles do not hold the watch.
 */
import { deprecatedValueNotice, deprecatedValuePaths } from "../../ir/deprecated-values.js";
import type { IrDeprecatedValue, IrDocument, IrOperation, IrSchema } from "../../ir/types.js";
import type { WriterFunction } from "../../writer.js";
import { comment, identifier } from "../escape.js";
import { constValue } from "../statements.js";
import { CodeCall, CodeRef } from "../value.js";

export class DeprecatedValueWatches {
  /** The notices some descriptor names, in first-use order. */
  private readonly used = new Set<IrDeprecatedValue>();

  constructor(
    private readonly ir: IrDocument,
    private readonly lookup: (key: string) => IrSchema | undefined,
  ) {}

  /** The descriptor's `deprecatedValues`, or undefined when its params cannot carry one. */
  watch(op: IrOperation): CodeCall | undefined {
    const found = deprecatedValuePaths(op, this.ir.deprecatedValues ?? [], this.lookup);
    if (found.length === 0) return undefined;
    // HTTP descriptors live in operations.js, which cannot import client.ts's constants: they hold the value itself
    if (op.protocol === "http") return new CodeCall(new CodeRef("valueNotices"), [found.map((f) => [[f.notice.value, deprecatedValueNotice(f.notice)], f.paths])]);
    for (const f of found) this.used.add(f.notice);
    return new CodeCall(new CodeRef("valueNotices"), [found.map((f) => [new CodeRef(identifier(noticeName(f.notice))), f.paths])]);
  }

  get any(): boolean {
    return this.used.size > 0;
  }

  /** The constants the watches name (before the descriptors that use them). */
  statements(): WriterFunction[] {
    return [...this.used].map((d) => constValue(noticeName(d), `${comment(JSON.stringify(d.value))} of \`${comment(d.schemaName)}\`, which the server no longer takes (\`x-avaspec-deprecated-values\` in ${comment(d.file)}), and what its first use warns.`, "DeprecatedValue", [d.value, deprecatedValueNotice(d)]));
  }
}

function noticeName(d: IrDeprecatedValue): string {
  if (!d.noticeName) throw new Error("internal: the naming pass names every deprecated value's notice");
  return d.noticeName;
}
