/**
 * What a client needs for its streamed operations (ADR 0025): each is a
 * `StreamMethod` on the client object and a function returning an
 * `ItemStream`, both calling the runtime's `streamHttp`. A module without
 * one imports none of it, so no bundle of its operations holds stream code.
 */
import { isStreamed } from "../../ir/streams.js";
import type { IrDocument } from "../../ir/types.js";
import type { RuntimeName } from "../runtime-files.js";

export { isStreamed };

/** Whether some HTTP operation of the module returns one body (its calls go through `callHttp`). */
export function callsHttp(ir: IrDocument): boolean {
  return ir.operations.some((op) => op.protocol === "http" && !isStreamed(op));
}

/** The runtime names client.ts imports for the module's streamed operations (none when it has none). */
export function streamImports(ir: IrDocument, asJs: boolean): RuntimeName[] {
  if (!ir.operations.some(isStreamed)) return [];
  // as JavaScript, client.ts holds the interface alone (the functions are in functions.js and .d.ts)
  const types = (asJs ? ["StreamMethod"] : ["ItemStream", "StreamMethod", "StreamOptions"]).map((name) => ({ name, isTypeOnly: true }));
  return asJs ? types : ["streamHttp", "streamMethod", ...types];
}
