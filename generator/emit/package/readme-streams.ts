/**
 * The package README's section on streamed responses (ADR 0025): which
 * client members return an `ItemStream`, written only for a package that
 * has some.
 */
import { isStreamed } from "../../ir/streams.js";
import type { IrDocument } from "../../ir/types.js";
import { groupPath } from "./examples.js";

export interface StreamSection {
  /** The streamed members, as code (`feeds.streamTicks`). */
  members: string[];
}

export function streamSection(inputs: readonly { ir: IrDocument; output: string; targets: ReadonlySet<string> }[], clientVar: (output: string) => string): StreamSection | false {
  const members = inputs.flatMap((i) => (i.targets.has("client") ? i.ir.operations.filter(isStreamed).map((op) => groupPath(i.ir, clientVar(i.output), [...op.group, op.names.method])) : []));
  return members.length > 0 ? { members } : false;
}
