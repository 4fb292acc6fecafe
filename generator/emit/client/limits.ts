/**
 * `x-avaspec-limits` in the generated code: an operation's own declaration
 * rides on its descriptor (`limits: { cost: 20 }`), so a bundle of one
 * operation carries that operation's cost and nothing else; a document's
 * budget (pool, unit, plans, batch caps, signals, per-server overrides) is one
 * exported constant per document (`dataApiLimits`, `cChainLimits`), which a
 * bundle carries only when it imports it.
 */
import type { IrDocument, IrDocumentLimits, IrLimits } from "../../ir/types.js";
import { comment } from "../escape.js";
import type { RuntimeName } from "../runtime-files.js";
import { constValue } from "../statements.js";
import type { Emitted } from "./context.js";
import type { OperationsModule } from "./operations.js";

/** The runtime's `OperationLimits` of an operation's declaration (undefined: none, so the descriptor has no `limits`). */
export function operationLimitsValue(limits: IrLimits | undefined): Record<string, unknown> | undefined {
  if (!limits) return undefined;
  const { cost, requestsPerSecond, range, signals } = limits;
  const value = { cost, requestsPerSecond, range, signals };
  return Object.values(value).some((v) => v !== undefined) ? value : undefined;
}

/** The runtime's `DocumentLimits` of a document's or server's members: plans by name. */
function documentLimitsValue(limits: IrLimits): Record<string, unknown> {
  const { pool, unit, cost, plans, requestsPerSecond, batch, signals } = limits;
  return {
    pool,
    unit,
    cost,
    plans: plans && Object.fromEntries(plans.map((p) => [p.name, { quotas: p.quotas, apiKey: p.apiKey }])),
    requestsPerSecond,
    batch,
    signals,
  };
}

/** A document's exported constant: its name, its docs and its `ServiceLimits` value. */
export function serviceLimitsConstant(d: IrDocumentLimits): { name: string; docs: string; value: Record<string, unknown> } {
  const value = { ...documentLimitsValue(d.limits), servers: d.servers.length > 0 ? d.servers.map((s) => ({ url: s.url, limits: documentLimitsValue(s.limits) })) : undefined };
  return {
    name: d.name!,
    docs: `The limits \`${comment(d.file)}\` declares (\`x-avaspec-limits\`): its cost pool and unit, plans, batch caps and how the server signals each limit, with what each server sets over them. Each operation's own cost and caps are on its descriptor (\`limits\`). A budget made from it (\`createBudget\`) paces the clients given it.`,
    value,
  };
}

/**
 * Each document's constant: in operations.js beside the descriptors when the
 * module's code is JavaScript (an HTTP module), else in client.ts. The
 * runtime type client.ts then imports, if any.
 */
export function emitServiceLimits(ir: IrDocument, asJs: boolean, out: Emitted, operations: OperationsModule): RuntimeName[] {
  const constants = (ir.limits ?? []).map(serviceLimitsConstant);
  for (const c of constants) {
    if (asJs) operations.add({ ...c, type: "ServiceLimits" });
    else out.statements.push(constValue(c.name, c.docs, "ServiceLimits", c.value));
  }
  return constants.length > 0 && !asJs ? [{ name: "ServiceLimits", isTypeOnly: true }] : [];
}
