/**
 * A client module's result checks (`dataApiResults`): what `validateResponse`
 * checks each descriptor's 2XX body against, kept apart from the descriptors
 * so that a bundle which does not validate responses drops them.
 */
import type { WriterFunction } from "../../writer.js";
import type { ClientNames } from "../../ir/types.js";
import { identifier } from "../escape.js";
import { writeDocs } from "../types/type-node.js";
import type { CodeRef } from "../value.js";

/**
 * The pairs are listed by a function declaration that `resultChecks` calls on
 * first use: tsc analyses the references inside a function body against that
 * body alone, while at the top level of a module each reference walks back
 * over every declaration above it (on Microsoft Graph beta, 17,000 pairs after
 * 22,000 descriptors cost tsc 87 s).
 */
export function resultChecksStatement(names: ClientNames, results: readonly [CodeRef, CodeRef][], hasHttp: boolean, subscriptions: boolean): WriterFunction {
  return (w) => {
    const payloads = subscriptions ? " and subscription payloads" : "";
    writeDocs(w, `Result checks by descriptor: what \`validateResponse\` checks 2XX bodies${payloads} against (the third argument of ${hasHttp ? "`resolveHttpConfig`" : "`createRpcTransport`"} when descriptors are called directly).`);
    if (results.length === 0) {
      w.writeLine(`export const ${identifier(names.results)}: ResultChecks = /* @__PURE__ */ resultChecks([]);`);
      return;
    }
    w.writeLine(`export const ${identifier(names.results)}: ResultChecks = /* @__PURE__ */ resultChecks(${identifier(names.resultPairs)});`);
    w.blankLine();
    w.write(`function ${identifier(names.resultPairs)}(): (readonly [object, Check])[] `).inlineBlock(() => {
      w.write("return [").newLine();
      // each descriptor widened to `object`: a literal of 1,000+ distinct descriptor types is a union TypeScript gives up on (TS2590)
      w.indent(() => {
        for (const [descriptor, check] of results) w.writeLine(`[${descriptor.name} as object, ${check.name}],`);
      });
      w.write("];").newLine();
    });
  };
}
