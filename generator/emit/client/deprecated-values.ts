/**
 * The client side of `x-avaspec-deprecated-values`: a module constant per
 * deprecated value (its value and notice), and on the descriptor of each
 * operation whose params can carry one a watch, `valueNotices([[notice,
 * paths]…])`, which the transports run before sending. Operations without
 * such values get nothing, so their bundles do not hold the watch.
 *
 * The constants go beside the descriptors that name them: exported from
 * client.ts for JSON-RPC descriptors, module constants of operations.js for
 * HTTP ones (operations.js cannot import client.ts, which imports it).
 */
import { deprecatedValueNotice, deprecatedValuePaths } from "../../ir/deprecated-values.js";
import type { IrDeprecatedValue, IrDocument, IrOperation, IrSchema } from "../../ir/types.js";
import type { WriterFunction } from "../../writer.js";
import { comment, identifier } from "../escape.js";
import { constValue } from "../statements.js";
import { CodeCall, CodeRef } from "../value.js";

export class DeprecatedValueWatches {
  /** The notices some JSON-RPC descriptor names, in first-use order. */
  private readonly used = new Set<IrDeprecatedValue>();
  /** The notices some HTTP descriptor names, in first-use order. */
  private readonly usedHttp = new Set<IrDeprecatedValue>();

  constructor(
    private readonly ir: IrDocument,
    private readonly lookup: (key: string) => IrSchema | undefined,
  ) {}

  /** The descriptor's `deprecatedValues`, or undefined when its params cannot carry one. */
  watch(op: IrOperation): CodeCall | undefined {
    const found = deprecatedValuePaths(op, this.ir.deprecatedValues ?? [], this.lookup);
    if (found.length === 0) return undefined;
    for (const f of found) (op.protocol === "http" ? this.usedHttp : this.used).add(f.notice);
    return new CodeCall(new CodeRef("valueNotices"), [found.map((f) => [new CodeRef(identifier(noticeName(f.notice))), f.paths])]);
  }

  get any(): boolean {
    return this.used.size > 0;
  }

  /** The constants the JSON-RPC watches name, for client.ts (before the descriptors that use them). */
  statements(): WriterFunction[] {
    return [...this.used].map((d) => constValue(noticeName(d), noticeDocs(d), "DeprecatedValue", noticeValue(d)));
  }

  /** The constants the HTTP watches name, for operations.js. */
  httpConstants(): { name: string; docs: string; value: unknown }[] {
    return [...this.usedHttp].map((d) => ({ name: noticeName(d), docs: noticeDocs(d), value: noticeValue(d) }));
  }
}

function noticeDocs(d: IrDeprecatedValue): string {
  return `${comment(JSON.stringify(d.value))} of \`${comment(d.schemaName)}\`, which the server no longer takes (\`x-avaspec-deprecated-values\` in ${comment(d.file)}), and what its first use warns.`;
}

function noticeValue(d: IrDeprecatedValue): unknown[] {
  return [d.value, deprecatedValueNotice(d)];
}

function noticeName(d: IrDeprecatedValue): string {
  if (!d.noticeName) throw new Error("internal: the naming pass names every deprecated value's notice");
  return d.noticeName;
}
