/**
 * The methods of an OpenRPC document read into the IR, one part per method:
 * its params and how they are sent, its result (with a wire shape), its
 * result-by-param variants, its declared errors and its examples.
 * build-openrpc.ts walks the document and asks this reader for each method.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { checkResultByParam, checkWireShape, operationStatus } from "../validate/extensions.js";
import { operationLimits } from "./limits.js";
import { objectWithProperties } from "./resolve.js";
import type { SchemaBuilder } from "./schema.js";
import type { IrRpcError, IrRpcExample, IrRpcOperation, IrRpcParam, JsonValue, RpcParamForm } from "./types.js";
import { documentedResult } from "./wire-shape.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export class OpenRpcMethods {
  private readonly lookup = (key: string) => this.schemas.named.get(key)?.schema;

  /** `dataIsSchema`: each error's `data` is a JSON Schema of what the server sends there, not a sample value (x-error-data-schema). */
  constructor(
    private readonly doc: LoadedDocument,
    private readonly schemas: SchemaBuilder,
    private readonly diagnostics: Diagnostic[],
    private readonly dataIsSchema: boolean,
  ) {}

  deref(node: unknown, pointer: string): { value: Record<string, unknown>; pointer: string } | undefined {
    let cur = node;
    let at = pointer;
    for (let hops = 0; isObj(cur) && typeof cur["$ref"] === "string"; hops++) {
      const r = hops > 32 ? undefined : this.doc.resolve(cur["$ref"], at);
      if (!r) return undefined;
      cur = r.value;
      at = r.pointer;
    }
    return isObj(cur) ? { value: cur, pointer: at } : undefined;
  }

  /** The method at `pointer` (in `methods`), or undefined when it is not an object with a name. */
  method(node: unknown, pointer: string): IrRpcOperation | undefined {
    const d = this.deref(node, pointer);
    if (!d || typeof d.value["name"] !== "string") return undefined;
    const method = d.value;
    const name = d.value["name"];
    const at = d.pointer;
    const params = this.params(method, at);
    const op: IrRpcOperation = {
      kind: "operation",
      protocol: "json-rpc",
      pointer: at,
      file: this.doc.file,
      id: name,
      names: { method: "", params: "", response: "", descriptor: "", validateParams: "", validateResult: "", function: "" },
      group: [],
      endpoint: "",
      ...operationStatus(method),
      ...operationLimits(method),
      idempotent: method["x-avaspec-idempotent"] === true,
      tags: (Array.isArray(method["tags"]) ? method["tags"] : []).map((t, k) => this.deref(t, ptr.join(at, "tags", k))?.value["name"]).filter((t): t is string => typeof t === "string"),
      transport: { kind: "json-rpc", pointer: at, method: name, form: this.paramForm(method, params) },
      params,
      errors: [],
      examples: [],
    };
    if (str(method["summary"])) op.summary = method["summary"] as string;
    if (str(method["description"])) op.description = method["description"] as string;
    this.result(method, at, op);
    const byParam = checkResultByParam(method, params.map((p) => p.name), at, () => {});
    if (byParam) {
      const pointer = ptr.join(at, "x-avaspec-result-by-param");
      op.resultByParam = { param: byParam.param, pointer, variants: byParam.variants.map((v, k) => ({ value: v.value as JsonValue, schema: this.schemas.build(v.schema, ptr.join(pointer, "variants", k, "schema")) })) };
    }
    (Array.isArray(method["errors"]) ? method["errors"] : []).forEach((e, k) => {
      const error = this.error(e, ptr.join(at, "errors", k));
      if (error) op.errors.push(error);
    });
    (Array.isArray(method["examples"]) ? method["examples"] : []).forEach((e, k) => {
      const example = this.example(e, ptr.join(at, "examples", k), k);
      if (example) op.examples.push(example);
    });
    return op;
  }

  private params(method: Record<string, unknown>, at: string): IrRpcParam[] {
    const params: IrRpcParam[] = [];
    (Array.isArray(method["params"]) ? method["params"] : []).forEach((p, j) => {
      const cd = this.deref(p, ptr.join(at, "params", j));
      if (!cd || typeof cd.value["name"] !== "string") return;
      const param: IrRpcParam = {
        kind: "rpc-param",
        pointer: cd.pointer,
        name: cd.value["name"],
        required: cd.value["required"] === true,
        deprecated: cd.value["deprecated"] === true,
        schema: this.schemas.build(cd.value["schema"] ?? true, ptr.join(cd.pointer, "schema")),
      };
      const desc = str(cd.value["description"]) ?? str(cd.value["summary"]);
      if (desc) param.description = desc;
      params.push(param);
    });
    return params;
  }

  /** By name unless the document says by position; one required object param by position is sent as that object. */
  private paramForm(method: Record<string, unknown>, params: IrRpcParam[]): RpcParamForm {
    const structure = str(method["paramStructure"]) ?? "either";
    let form: RpcParamForm = structure === "by-position" ? "by-position" : "by-name";
    if (form === "by-position" && params.length === 1 && params[0]!.required && objectWithProperties(params[0]!.schema, this.lookup)) form = "one-object";
    return form;
  }

  private result(method: Record<string, unknown>, at: string, op: IrRpcOperation): void {
    const result = this.deref(method["result"], ptr.join(at, "result"));
    if (!result) return;
    op.result = { kind: "rpc-result", pointer: result.pointer, name: str(result.value["name"]) ?? "result", schema: this.schemas.build(result.value["schema"] ?? true, ptr.join(result.pointer, "schema")) };
    if (str(result.value["description"])) op.result.description = result.value["description"] as string;
    const wrappedIn = checkWireShape(result.value, result.pointer, () => {});
    if (wrappedIn === undefined) return;
    const pointer = ptr.join(result.pointer, "x-avaspec-wire-shape");
    const shape = documentedResult(op.result.schema, wrappedIn, this.lookup);
    if ("problem" in shape) {
      const { line, col } = this.doc.locate(pointer);
      this.diagnostics.push({ code: "extension/wire-shape", severity: "error", message: shape.problem, file: this.doc.file, pointer, line, col, hint: shape.hint });
    } else {
      // a wrapped branch the schema lists is the wire's business: callers get the documented result
      op.result.schema = shape.documented;
      op.result.wire = { kind: "wrapped", property: wrappedIn, pointer };
    }
  }

  private error(node: unknown, pointer: string): IrRpcError | undefined {
    const err = this.deref(node, pointer);
    if (!err || !Number.isInteger(err.value["code"])) return undefined;
    const message = str(err.value["message"]) ?? "";
    const key = /^#\/components\/errors\/[^/]+$/.test(err.pointer) ? ptr.parse(err.pointer)?.at(-1) : undefined;
    const irErr: IrRpcError = { kind: "rpc-error", pointer: err.pointer, code: err.value["code"] as number, message, source: key ?? message, className: "" };
    const data = err.value["data"];
    if (this.dataIsSchema && data !== undefined && (isObj(data) || typeof data === "boolean")) {
      irErr.data = this.schemas.build(data, ptr.join(err.pointer, "data"));
      if (isObj(data) && str(data["description"])) irErr.description = data["description"] as string;
    } else {
      const desc = str(data) ?? str(err.value["description"]);
      if (desc) irErr.description = desc;
    }
    return irErr;
  }

  private example(node: unknown, pointer: string, index: number): IrRpcExample | undefined {
    const ex = this.deref(node, pointer);
    if (!ex) return undefined;
    const example: IrRpcExample = { kind: "rpc-example", pointer: ex.pointer, name: str(ex.value["name"]) ?? `example ${index + 1}`, params: [] };
    (Array.isArray(ex.value["params"]) ? ex.value["params"] : []).forEach((p, n) => {
      const v = this.deref(p, ptr.join(ex.pointer, "params", n));
      if (v && typeof v.value["name"] === "string") example.params.push({ name: v.value["name"], value: v.value["value"] as JsonValue });
    });
    const r = this.deref(ex.value["result"], ptr.join(ex.pointer, "result"));
    if (r && "value" in r.value) example.result = r.value["value"] as JsonValue;
    return example;
  }
}
