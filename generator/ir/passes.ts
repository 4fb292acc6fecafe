/**
 * IR passes that run after building: naming. All TypeScript names of one
 * output module come from one registry, so nothing exported can collide;
 * method names are unique within their group on the client.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import * as ptr from "../load/pointer.js";
import { deriveOperationName, isIdentifier, isIdentifierName, NameRegistry, pascalCase, toIdentifier } from "./naming.js";
import { schemaSourceName } from "./module.js";
import { UNGROUPED_ENDPOINT_MEMBER } from "./endpoints.js";
import { namedSchema } from "./resolve.js";
import { httpResult, schemasOf } from "./results.js";
import { errorResponses } from "./errors.js";
import type { IrDocument, IrHttpOperation, IrNamedSchema, IrOperation, IrParameter, IrRefSchema, IrSchema, IrWebhook } from "./types.js";

/** What validators.ts imports from runtime/values/validate.ts and runtime/values/formats.ts (a schema named `Object` must not get the guard `isObject`); a test keeps it in step with the runtime. */
export const VALIDATOR_RUNTIME_NAMES = ["run", "readingResponse", "answers", "requestOnly", "is", "pathSegments", "standard", "unwrapped", "fail", "hasOwn", "setOwn", "OP", "isObject", "esc", "equal", "unique", "length", "multipleOf", "isBinary", "date", "time", "dateTime", "hostname", "ipv4", "ipv6", "email", "uuid", "uri", "Check", "StandardSchemaV1", "StandardResult", "StandardIssue", "ValidationResult", "ValidationIssue"];

/** What the generated modules import from runtime/values/numbers.ts and exact.ts (integer walkers, the number policy's types). */
export const INTEGER_RUNTIME_NAMES = ["Leaf", "Walk", "walkUnion", "withKey", "prop", "items", "validated", "decoder", "encoder", "Decoder", "Encoder", "Numbers", "Decoded", "Encodable", "IntegerString", "HexEncoded", "Numbered", "numberLeaf", "exactDecoder", "exactBody", "jsonRpcEncoder", "wired", "normalizer", "normalized", "Normalizer"];

/** The global types a binary field is typed with in types.ts (emit/types/type-node.ts): a schema named `Blob` must not shadow them. */
export const BINARY_TYPE_NAMES = ["Blob", "ArrayBuffer", "ArrayBufferView"];

/** Names the emitted modules import or use themselves. */
const RESERVED_EXPORTS = [...VALIDATOR_RUNTIME_NAMES, ...INTEGER_RUNTIME_NAMES, "T", "HttpOperation", "RpcMethod", "CallOptions", "HttpClientOptions", "RpcClientOptions", "BatchResults", "RpcCall", "callHttp", "resolveHttpConfig", "createRpcTransport", "resultChecks", "ResultChecks", "pathStyle", "queryStyle", "headerStyle", "contentQuery", "formBody", "multipartBody", "Map", "Promise", "Record", "RpcError", "RpcServerError", "RpcErrorInit", "createEip1193Provider", "Eip1193Provider", "httpOf", "HttpConfig", "RpcTransport", "Numbers", "paged", "PagedMethod", "then", "createWsTransport", "Subscription", "SubscriptionKind", "SubscriptionParams", "SubscribeOptions", "WsTransport", "WebSocketOptions", "WsPath", "valueNotices", "DeprecatedValue", "ValueWatch", "ValuePath", "endpointCall", "bindEndpoint", "withEndpoint", "EndpointVariables", "httpMethod", "isOperationError", ...BINARY_TYPE_NAMES];

/** Client members that are not operations. */
const RESERVED_MEMBERS = ["batch"];
/**
 * Never a member of a client or group object: with `then`, `await` (and an
 * async function's return) would take the object for a promise; with
 * `toJSON`, `JSON.stringify` of anything holding the client would call the
 * operation (a request, and a rejection nobody handles).
 */
const PROTOCOL_MEMBERS = ["then", "toJSON"];

export function assignNames(ir: IrDocument, clientName: string, diagnostics: Diagnostic[], locate: (file: string, pointer: string) => { line: number; col: number }): void {
  const exported = new NameRegistry();
  exported.reserve(...RESERVED_EXPORTS);
  const base = toIdentifier(clientName, "pascal");
  ir.names = {
    factory: exported.claim(`create${base}Client`),
    client: exported.claim(`${base}Client`),
    options: exported.claim(`${base}ClientOptions`),
    defaultBaseUrl: exported.claim(`${toConstant(base)}_DEFAULT_BASE_URL`),
    results: exported.claim(toIdentifier(`${base} Results`, "camel")),
    resultPairs: exported.claim(toIdentifier(`${base} Result Pairs`, "camel")),
    core: "",
    coreFactory: "",
  };
  nameSchemas(ir, exported);
  // validators after every type name, so a schema never loses its own name to a validator
  for (const s of ir.schemas) s.names = { validate: exported.claim(`validate${s.name}`), standard: exported.claim(`${s.name}Schema`), guard: exported.claim(`is${s.name}`) };
  // request shapes of schemas whose members depend on the direction (readOnly / writeOnly)
  const twoWay = directional(ir);
  for (const s of ir.schemas) {
    if (!twoWay.has(s.key)) continue;
    s.names.input = exported.claim(`${s.name}Input`);
    if (s.names.input !== `${s.name}Input`) {
      // the spec has its own ${name}Input: the request shape takes another name, which a user should hear of
      const file = s.key.slice(0, s.key.indexOf("#"));
      const { line, col } = locate(file, s.schema.pointer);
      diagnostics.push({ code: "naming/collision", severity: "warning", message: `the request shape of ${s.name} (what a request sends: no readOnly members) would be ${s.name}Input, which another type already is; it is ${s.names.input}`, file, pointer: s.schema.pointer, line, col, hint: `rename one of them, or make ${s.name} the same in both directions` });
    }
  }
  // one registry per group; child group names are taken first so a method cannot shadow a group
  const levels = new Map<string, NameRegistry>();
  const level = (path: string[]) => {
    const key = path.join(".");
    let r = levels.get(key);
    if (!r) {
      levels.set(key, (r = new NameRegistry()));
      r.reserve(...PROTOCOL_MEMBERS);
    }
    return r;
  };
  // the member `at` that a document without a group gets for its endpoint's variables names no type: `chainHead`, not `atChainHead`
  const named = (group: string[]) => (group[0] === UNGROUPED_ENDPOINT_MEMBER && ir.endpointGroups?.some((g) => g.synthetic && g.group[0] === UNGROUPED_ENDPOINT_MEMBER) ? group.slice(1) : group);
  const hasRpc = ir.operations.some((op) => op.protocol === "json-rpc");
  if (hasRpc) renameReservedGroups(ir, diagnostics, locate);
  if (hasRpc) level([]).reserve(...RESERVED_MEMBERS);
  for (const op of ir.operations) for (let i = 0; i < op.group.length; i++) level(op.group.slice(0, i)).reserve(op.group[i]!);
  // an EIP-1193 provider is the member `provider` of its group: a method of that name gets another
  for (const p of ir.providers ?? []) level(p.group).reserve("provider");
  // a WebSocket form is the member `ws` of its group
  for (const w of ir.webSockets ?? []) level(w.group).reserve("ws");

  for (const op of ir.operations) {
    const wanted = op.nameHint ?? (op.id !== "" ? (isIdentifierName(op.id) ? op.id : toIdentifier(op.id, "camel")) : op.protocol === "http" ? deriveOperationName(op.transport.method, op.transport.path) : "call");
    const safe = isIdentifierName(wanted) ? wanted : toIdentifier(wanted, "camel");
    const method = level(op.group).claim(safe);
    if (method !== safe) {
      const { line, col } = locate(op.file, op.pointer);
      diagnostics.push({ code: "naming/collision", severity: "warning", message: `method name ${JSON.stringify([...op.group, safe].join("."))} is taken; using ${JSON.stringify(method)}`, file: op.file, pointer: op.pointer, line, col });
    }
    const type = typeStem([...named(op.group), method]);
    const only = onlyNamedBody(ir, op);
    op.names = {
      method,
      params: exported.claim(`${type}Params`),
      response: only ? only : exported.claim(`${type}${op.protocol === "http" ? "Response" : "Result"}`),
      descriptor: exported.claim(toIdentifier(`${type} ${op.protocol === "http" ? "Operation" : "Method"}`, "camel")),
      validateParams: "",
      validateResult: "",
      function: "",
    };
  }
  for (const op of ir.operations) if (op.protocol === "http") assignParamKeys(op, diagnostics, locate);
  const validatorOfType = new Map(ir.schemas.map((s) => [s.name, s.names.validate]));
  for (const op of ir.operations) {
    const type = typeStem([...named(op.group), op.names.method]);
    op.names.validateParams = exported.claim(`validate${type}Params`);
    const wanted = `validate${type}${op.protocol === "http" ? "Response" : "Result"}`;
    // the response is one named schema whose validator has this very name (`listThings` → `ListThingsResponse`): that validator is the operation's too
    const wrapped = op.protocol === "json-rpc" && op.result?.wire?.property !== undefined;
    const shared = !wrapped && validatorOfType.get(op.names.response) === wanted;
    op.names.validateResult = shared ? wanted : exported.claim(wanted);
  }
  // a provider's RpcSchema type and descriptor list: `cChain` → CChainRpcSchema, cChainProviderMethods; top level: the client's name
  for (const p of ir.providers ?? []) {
    const stem = named(p.group).length > 0 ? typeStem(named(p.group)) : base;
    p.names = { schema: exported.claim(`${stem}RpcSchema`), methods: exported.claim(`${stem.charAt(0).toLowerCase()}${stem.slice(1)}ProviderMethods`) };
  }
  // a document's declared limits: `cChain` → cChainLimits; top level: the client's name (dataApiLimits)
  for (const l of ir.limits ?? []) {
    const stem = named(l.group).length > 0 ? typeStem(named(l.group)) : base;
    l.name = exported.claim(`${stem.charAt(0).toLowerCase()}${stem.slice(1)}Limits`);
  }
  nameRpcErrors(ir, exported);
  // the tree-shakable form, claimed last so that no earlier name changes for it
  ir.names.core = exported.claim(`${base}Core`);
  ir.names.coreFactory = exported.claim(`create${base}Core`);
  if ((ir.webSockets ?? []).length > 0) ir.names.webSockets = exported.claim(`${toConstant(base)}_WEB_SOCKETS`);
  for (const w of ir.webSockets ?? []) {
    for (const k of w.subscriptions?.kinds ?? []) {
      const stem = typeStem([...w.group, k.kind]);
      k.names = { descriptor: exported.claim(`${stem.charAt(0).toLowerCase()}${stem.slice(1)}Subscription`), payload: exported.claim(`${stem}Payload`), method: isIdentifierName(k.kind) ? k.kind : toIdentifier(k.kind, "camel") };
    }
  }
  for (const op of ir.operations) {
    const stem = typeStem([...named(op.group), op.names.method]);
    const fn = `${stem.charAt(0).toLowerCase()}${stem.slice(1)}`;
    // a reserved word (`new`, `delete`) cannot name a function
    op.names.function = exported.claim(isIdentifier(fn) ? fn : `${fn}_`);
  }
  if (ir.webhooks?.length) nameWebhooks(ir.webhooks, base, exported, ir.names);
  // the notices of deprecated values: module constants of client.ts, claimed last so that no other name changes for them
  for (const d of ir.deprecatedValues ?? []) d.noticeName = exported.claim(toIdentifier(`${d.schemaName} ${String(d.value)} notice`, "camel"));
  // the variables' type of each group that is a function of its endpoint's path variables (`L1Endpoint`)
  for (const g of ir.endpointGroups ?? []) g.names = { type: exported.claim(`${named(g.group).length > 0 ? typeStem(named(g.group)) : base}Endpoint`) };
  // claimed after every other name, so that none changes for them
  nameErrors(ir, base, exported, (op) => typeStem([...named(op.group), op.names.method]));
}

/**
 * The webhook payload map and its validator, claimed after every other name
 * so that none changes for them; each webhook's key in the map: its name, its
 * method and name when it has a body on several methods, and its file beside
 * that when another document of the module has the same webhook.
 */
function nameWebhooks(webhooks: IrWebhook[], base: string, exported: NameRegistry, names: IrDocument["names"]): void {
  names.webhooks = { payloads: exported.claim(`${base}Webhooks`), validate: exported.claim(`validate${base}Webhook`) };
  const keys = new Set<string>();
  for (const h of webhooks) {
    const own = webhooks.some((o) => o !== h && o.file === h.file && o.name === h.name) ? `${h.method.toUpperCase()} ${h.name}` : h.name;
    h.key = keys.has(own) ? `${own} (${h.file})` : own;
    keys.add(h.key);
  }
}

/**
 * Type names of the named schemas: the spec's name as a PascalCase
 * identifier. In a merged module two documents may define different schemas
 * under one name (identical ones were made one by the module pass): the first
 * keeps the name, each other is qualified by its document (`platform` →
 * `PlatformCb58Id`). Unqualified names are claimed first, so a name the spec
 * wrote wins over a qualified one. A number is appended only when neither
 * helps (two schemas of one document whose names are one identifier,
 * `Foo_Bar` and `FooBar`; a name the emitted code uses itself, `Promise`).
 */
function nameSchemas(ir: IrDocument, exported: NameRegistry): void {
  const first = new Map<string, IrNamedSchema>();
  const qualified: [IrNamedSchema, string][] = [];
  for (const s of ir.schemas) {
    const base = toIdentifier(schemaSourceName(s), "pascal");
    const owner = first.get(base);
    if (owner === undefined) {
      first.set(base, s);
      s.name = base;
    } else if (s.qualifier !== undefined && s.qualifier !== owner.qualifier) qualified.push([s, toIdentifier(`${s.qualifier} ${base}`, "pascal")]);
    else qualified.push([s, base]);
  }
  for (const s of first.values()) s.name = exported.claim(s.name);
  for (const [s, name] of qualified) s.name = exported.claim(name);
}

/**
 * One exported class per declared JSON-RPC error: `AliasTooLong` under
 * `components/errors` becomes `AliasTooLongError`, an inline error is named
 * from its message (`Invalid params` → `InvalidParamsError`). Errors that are
 * the same (name, code, message and data schema), such as one referenced by
 * many methods or repeated in several merged documents, share their class.
 * Claimed last, so no type, validator or descriptor changes name for them.
 */
function nameRpcErrors(ir: IrDocument, exported: NameRegistry): void {
  // per name, code and message: the classes made so far and what their data is (null: not said)
  const classes = new Map<string, { name: string; data: string | null }[]>();
  for (const op of ir.operations) {
    if (op.protocol !== "json-rpc") continue;
    for (const e of op.errors) {
      const identity = JSON.stringify([e.source, e.code, e.message]);
      const constraint = dataConstraint(e.data);
      const data = constraint === null ? null : JSON.stringify(constraint);
      const made = classes.get(identity) ?? [];
      classes.set(identity, made);
      // one document saying nothing about the data and another typing it describe the same error
      let found = made.find((c) => c.data === data || c.data === null || data === null);
      if (found && found.data === null) found.data = data;
      if (!found) {
        const base = pascalCase(e.source) || `Rpc${pascalCase(String(e.code)) || "Declared"}`;
        made.push((found = { name: exported.claim(toIdentifier(/Error$/.test(base) ? base : `${base}Error`, "pascal")), data }));
      }
      e.className = found.name;
    }
  }
}

/** Where a schema was written and what only documents it: not part of what it constrains. */
const ANNOTATIONS = new Set(["pointer", "title", "description", "examples", "default", "deprecated"]);

/**
 * What an error's data schema constrains, as data (null when nothing): the
 * same error written in two merged documents, one documenting its data and
 * one not, is one error.
 */
function dataConstraint(schema: IrSchema | undefined): unknown {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (!ANNOTATIONS.has(k)) out[k] = strip(v);
    return out;
  };
  if (schema === undefined) return null;
  const bare = strip(schema) as Record<string, unknown>;
  const unconstrained = (bare["kind"] === "boolean" && bare["value"] === true) || (bare["kind"] === "schema" && Object.keys(bare).length === 1);
  return unconstrained ? null : bare;
}

/**
 * A top-level group named like a member the client has for itself (`batch`,
 * e.g. from the JSON-RPC method `batch_get`) would replace that member: the
 * group is renamed instead, as a method would be (`batch2`), with a warning.
 */
function renameReservedGroups(ir: IrDocument, diagnostics: Diagnostic[], locate: (file: string, pointer: string) => { line: number; col: number }): void {
  const top = new NameRegistry();
  top.reserve(...RESERVED_MEMBERS, ...ir.operations.map((op) => op.group[0]).filter((g): g is string => g !== undefined && !RESERVED_MEMBERS.includes(g)));
  const renamed = new Map<string, string>();
  for (const op of ir.operations) {
    const group = op.group[0];
    if (group === undefined || !RESERVED_MEMBERS.includes(group)) continue;
    let to = renamed.get(group);
    if (to === undefined) {
      renamed.set(group, (to = top.claim(group)));
      const { line, col } = locate(op.file, op.pointer);
      diagnostics.push({ code: "naming/collision", severity: "warning", message: `group name ${JSON.stringify(group)} is the client's own ${group}(); using ${JSON.stringify(to)}`, file: op.file, pointer: op.pointer, line, col });
    }
    op.group = [to, ...op.group.slice(1)];
  }
}

/**
 * The names of what HTTP operations throw: per operation that declares error
 * responses, its error type (`GetOrderError`) and guard (`isGetOrderError`);
 * the exported advice of the module's root (`shopErrorAdvice`).
 */
function nameErrors(ir: IrDocument, base: string, exported: NameRegistry, stem: (op: IrOperation) => string): void {
  for (const op of ir.operations) {
    if (op.protocol !== "http" || errorResponses(op).length === 0) continue;
    const type = stem(op);
    // a schema of the spec may be called GetOrderError already (and client.ts names the runtime's ApiError): the operation's type is then GetOrderFailure
    const wanted = `${type}Error`;
    op.names.error = exported.claim(exported.has(wanted) || wanted === "ApiError" ? `${type}Failure` : wanted);
    op.names.errorGuard = exported.claim(`is${op.names.error}`);
  }
  if (ir.advice) ir.names.advice = exported.claim(toIdentifier(`${base} Error Advice`, "camel"));
}

/** The stem of an operation's type names (`getChainInfo` → `GetChainInfoParams`): a PascalCase identifier (method `_1st` → `_1stParams`). */
function typeStem(path: string[]): string {
  const words = path.join(" ");
  return pascalCase(words) === "" ? "Operation" : toIdentifier(words, "pascal");
}

/** Where a parameter keeps its own name when several share it: the path's (required, always there) first. */
const LOCATION_ORDER = ["path", "query", "querystring", "header", "cookie"] as const;

/**
 * Each parameter's property in the params object. OpenAPI identifies a
 * parameter by name and location, so `id` may be in the path, the query and a
 * header at once; and `body` is the request body's property. The first by
 * location keeps its name, the others become `<name>_<location>`.
 */
function assignParamKeys(op: IrHttpOperation, diagnostics: Diagnostic[], locate: (file: string, pointer: string) => { line: number; col: number }): void {
  const taken = new Set<string>(op.requestBody ? ["body"] : []);
  const byName = new Map<string, number>();
  for (const p of op.parameters) byName.set(p.name, (byName.get(p.name) ?? 0) + 1);
  const ordered = [...op.parameters].sort((a, b) => LOCATION_ORDER.indexOf(a.in) - LOCATION_ORDER.indexOf(b.in));
  // names that are nobody else's stay as they are
  const settled = new Set<IrParameter>();
  for (const p of ordered) if (byName.get(p.name) === 1 && !taken.has(p.name)) (taken.add((p.key = p.name)), settled.add(p));
  for (const p of ordered) {
    if (settled.has(p)) continue;
    let key = taken.has(p.name) ? `${p.name}_${p.in}` : p.name;
    for (let i = 2; taken.has(key); i++) key = `${p.name}_${p.in}${i}`;
    p.key = key;
    taken.add(key);
    if (key !== p.name) {
      const { line, col } = locate(op.file, p.pointer);
      diagnostics.push({ code: "naming/parameter", severity: "warning", message: `${p.in} parameter ${JSON.stringify(p.name)} shares its name with ${p.name === "body" && op.requestBody ? "the request body" : "another parameter of the operation"}; it is ${JSON.stringify(key)} in the params object`, file: op.file, pointer: p.pointer, line, col });
    }
  }
}

/** Visits every schema node under `node` (refs are not followed). */
function eachSchema(node: unknown, visit: (s: IrSchema) => void): void {
  if (Array.isArray(node)) {
    for (const v of node) eachSchema(v, visit);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const kind = (node as { kind?: unknown }).kind;
  if (kind === "ref" || kind === "schema" || kind === "boolean") visit(node as IrSchema);
  for (const v of Object.values(node)) if (typeof v === "object" && v !== null) eachSchema(v, visit);
}

/**
 * Keys of the named schemas whose request and response shapes differ: those
 * with a readOnly or writeOnly property, and those that reach one through refs.
 */
export function directional(ir: IrDocument): Set<string> {
  const refs = new Map<string, Set<string>>();
  const out = new Set<string>();
  for (const named of ir.schemas) {
    const targets = new Set<string>();
    eachSchema(named.schema, (s) => {
      if (s.kind === "ref") targets.add(s.target);
      else if (s.kind === "schema" && s.properties?.some((p) => p.schema.readOnly === true || p.schema.writeOnly === true)) out.add(named.key);
    });
    refs.set(named.key, targets);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [key, targets] of refs) if (!out.has(key) && [...targets].some((t) => out.has(t))) (out.add(key), (grew = true));
  }
  return out;
}

/** A response that is exactly one named schema is typed by that schema's name: no alias (not for `*∕*`, which may also be text). */
function onlyNamedBody(ir: IrDocument, op: IrOperation): string | undefined {
  const result = op.protocol === "http" ? httpResult(op, schemasOf(ir)) : undefined;
  const bodies = result ? (result.kind === "any" ? [] : result.schemas) : op.protocol === "json-rpc" && op.result ? [op.result.schema] : [];
  const first = bodies[0];
  if (bodies.length !== 1 || first?.kind !== "ref") return undefined;
  return namedSchema(ir, first.target)?.name;
}

function toConstant(pascal: string): string {
  return pascal.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

/**
 * A named schema that is nothing but refs to itself (`A: {$ref: B}`, `B:
 * {$ref: A}`; `A: {allOf: [{$ref: A}]}`) has no type (TypeScript: "circularly
 * references itself") and no finite check. Refs reached through properties
 * or items are fine; the ones reached through refs and allOf/anyOf/oneOf
 * alone are followed, and the ref that closes a cycle is read as any value,
 * with a ref/cycle warning there. Iterative: chains may be thousands long.
 */
export function breakRefCycles(ir: IrDocument, diagnostics: Diagnostic[], locate: (file: string, pointer: string) => { line: number; col: number }): void {
  const direct = (s: IrSchema): IrRefSchema[] => {
    const out: IrRefSchema[] = [];
    const stack = [s];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x.kind === "ref") out.push(x);
      else if (x.kind === "schema") for (const k of ["allOf", "anyOf", "oneOf"] as const) for (const m of x[k] ?? []) stack.push(m);
    }
    return out.reverse();
  };
  const state = new Map<string, "open" | "done">();
  for (const root of ir.schemas) {
    if (state.has(root.key)) continue;
    const path: { key: string; refs: IrRefSchema[]; next: number }[] = [{ key: root.key, refs: direct(root.schema), next: 0 }];
    state.set(root.key, "open");
    while (path.length > 0) {
      const top = path.at(-1)!;
      const ref = top.refs[top.next++];
      if (!ref) {
        state.set(top.key, "done");
        path.pop();
        continue;
      }
      const target = namedSchema(ir, ref.target);
      if (!target) continue;
      if (state.get(target.key) === "open") {
        const from = path.findIndex((p) => p.key === target.key);
        const names = [...path.slice(from).map((p) => namedSchema(ir, p.key)!.id), target.id];
        const file = target.key.slice(0, target.key.length - target.pointer.length);
        const { line, col } = locate(file, ref.pointer);
        diagnostics.push({ code: "ref/cycle", severity: "warning", message: `$ref cycle with nothing in between: ${names.join(" → ")}; it describes no value, so this $ref is read as any value`, file, pointer: ref.pointer, line, col, hint: "put the recursion inside a property or array items, or remove the $ref" });
        const node = ref as unknown as Record<string, unknown>;
        for (const k of Object.keys(node)) if (k !== "pointer" && k !== "description") delete node[k];
        Object.assign(node, { kind: "boolean", value: true });
      } else if (!state.has(target.key)) {
        state.set(target.key, "open");
        path.push({ key: target.key, refs: direct(target.schema), next: 0 });
      }
    }
  }
}
