/**
 * Issue 19: the rule table of `avaspec diff`. Each case is a tiny before/after
 * pair, in OpenAPI 3.1 and in OpenRPC, built from one base document per
 * format and one mutation, with the rule and class it must produce; schema
 * mutations run in both directions (the request schema `NewItem`, the
 * response schema `Item`), where what narrows a request widens a response.
 * No-change cases (reordered keys, a schema moved behind a `$ref`,
 * descriptions only) must report nothing breaking. The CLI's formats and
 * exit codes are checked at the end.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffModules, type Change, type ChangeClass } from "../../generator/diff/index.js";
import { hasCommit, runCli } from "../helpers/cli.js";
import { diffSides, type Doc } from "../helpers/diff-sides.js";

const { dir, side } = diffSides("avaspec-diff-rules-");

const diff = (before: Doc, after: Doc): Change[] => diffModules(side(before), side(after));

// ---- base documents ---------------------------------------------------------------------------

const itemProps = () => ({ kind: { type: "string", enum: ["a", "b"] }, size: { type: "integer", minimum: 0 }, note: { type: "string", maxLength: 50 }, tags: { type: "array", items: { type: "string" } } });
const schemas = () => ({
  Item: { type: "object", required: ["id", "kind"], properties: { id: { type: "string" }, ...itemProps() } },
  NewItem: { type: "object", required: ["kind"], properties: itemProps() },
});

function api(): Doc {
  return {
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    paths: {
      "/items/{id}": {
        get: {
          operationId: "getItem",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } },
          ],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } } },
        },
      },
      "/items": {
        post: {
          operationId: "createItem",
          requestBody: { required: false, content: { "application/json": { schema: { $ref: "#/components/schemas/NewItem" } } } },
          responses: { "201": { description: "created", content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } } },
        },
      },
    },
    components: { schemas: schemas(), securitySchemes: { key: { type: "apiKey", in: "header", name: "x-key" } } },
  };
}

function rpc(): Doc {
  return {
    openrpc: "1.3.2",
    info: { title: "R", version: "1" },
    servers: [{ name: "node", url: "https://rpc.example.com/rpc" }],
    methods: [
      {
        name: "get_item",
        paramStructure: "by-position",
        params: [
          { name: "id", required: true, schema: { type: "string" } },
          { name: "verbose", schema: { type: "boolean" } },
        ],
        result: { name: "item", schema: { $ref: "#/components/schemas/Item" } },
        errors: [{ code: -32000, message: "not found" }],
      },
      {
        name: "put_item",
        paramStructure: "by-name",
        params: [{ name: "item", required: true, schema: { $ref: "#/components/schemas/NewItem" } }],
        result: { name: "ok", schema: { type: "boolean" } },
      },
    ],
    components: { schemas: schemas() },
  };
}

interface Case {
  name: string;
  base: () => Doc;
  mutate: (d: Doc) => void;
  /** [rule, class] that must be among the changes; `null`: nothing breaking at all. */
  expect: [string, ChangeClass] | null;
  /** Rules that must not be among the changes (what a wrong reading of the change would report). */
  absent?: string[];
}

const cases: Case[] = [];
const formats = { openapi: api, openrpc: rpc } as const;

// ---- schema mutations, both directions, both formats -------------------------------------------

type Mut = { name: string; apply: (s: Doc) => void; request: [string, ChangeClass] | null; response: [string, ChangeClass] | null; absent?: string[] };
const notPerProperty = ["response-property-removed", "request-property-removed", "response-type-widened", "request-type-narrowed"];
const mutations: Mut[] = [
  { name: "an enum value removed", apply: (s) => (s["properties"].kind.enum = ["a"]), request: ["request-enum-value-removed", "breaking-wire"], response: ["response-enum-value-removed", "documentation"] },
  { name: "an enum value added", apply: (s) => (s["properties"].kind.enum = ["a", "b", "c"]), request: ["request-enum-value-added", "addition"], response: ["response-enum-value-added", "breaking-wire"] },
  { name: "an enum opened (x-avaspec-open-enum)", apply: (s) => (s["properties"].kind["x-avaspec-open-enum"] = true), request: ["request-enum-opened", "addition"], response: ["response-enum-opened", "breaking-wire"] },
  { name: "a type changed", apply: (s) => (s["properties"].size = { type: "string" }), request: ["request-type-narrowed", "breaking-wire"], response: ["response-type-widened", "breaking-wire"] },
  { name: "null allowed", apply: (s) => (s["properties"].size.type = ["integer", "null"]), request: ["request-type-widened", "addition"], response: ["response-type-widened", "breaking-wire"] },
  { name: "a property made required", apply: (s) => s["required"].push("size"), request: ["request-property-became-required", "breaking-wire"], response: null },
  { name: "a property made optional", apply: (s) => (s["required"] = s["required"].filter((r: string) => r !== "kind")), request: null, response: ["response-property-became-optional", "breaking-wire"] },
  { name: "a property removed", apply: (s) => delete s["properties"].size, request: ["request-property-removed", "documentation"], response: ["response-property-removed", "breaking-wire"] },
  { name: "an optional property added", apply: (s) => (s["properties"].color = { type: "string" }), request: ["request-property-added", "addition"], response: ["response-property-added", "addition"] },
  { name: "a required property added", apply: (s) => ((s["properties"].color = { type: "string" }), s["required"].push("color")), request: ["request-property-added-required", "breaking-wire"], response: ["response-property-added", "addition"] },
  { name: "additionalProperties closed", apply: (s) => (s["additionalProperties"] = false), request: ["request-additional-properties-closed", "breaking-wire"], response: null },
  { name: "a minimum raised", apply: (s) => (s["properties"].size.minimum = 5), request: ["request-bound-tightened", "breaking-wire"], response: null },
  { name: "a maxLength lowered", apply: (s) => (s["properties"].note.maxLength = 10), request: ["request-bound-tightened", "breaking-wire"], response: null },
  { name: "a pattern added", apply: (s) => (s["properties"].note.pattern = "^[a-z]+$"), request: ["request-pattern-added", "breaking-wire"], response: null },
  { name: "a format added", apply: (s) => (s["properties"].note.format = "email"), request: ["request-format-changed", "breaking-wire"], response: null },
  { name: "items of an array changed", apply: (s) => (s["properties"].tags.items = { type: "integer" }), request: ["request-type-narrowed", "breaking-wire"], response: ["response-type-widened", "breaking-wire"] },
  { name: "a property deprecated", apply: (s) => (s["properties"].note.deprecated = true), request: ["schema-deprecated", "deprecation"], response: ["schema-deprecated", "deprecation"] },
  { name: "a description changed", apply: (s) => (s["properties"].note.description = "free text"), request: ["description-changed", "documentation"], response: ["description-changed", "documentation"] },
  { name: "a string marked as an integer", apply: (s) => (s["properties"].note["x-avaspec-integer"] = "decimal"), request: ["integer-marked", "breaking-code"], response: ["integer-marked", "breaking-code"] },
  // an object restructured into a union is judged as a whole (not as every property removed)
  { name: "split into a oneOf of variants, each requiring a tag", apply: (s) => toUnion(s, (v) => [variant(v, "x"), variant(v, "y")]), request: ["request-restructured", "breaking-wire"], response: ["response-restructured", "breaking-code"], absent: notPerProperty },
  { name: "now a oneOf of itself or another shape", apply: (s) => toUnion(s, (v) => [v, { type: "object", required: ["other"], properties: { other: { type: "string" } } }]), request: ["request-restructured", "addition"], response: ["response-restructured", "breaking-wire"], absent: notPerProperty },
  { name: "now an anyOf of variants, one without a property", apply: (s) => toUnion(s, (v) => [v, { ...v, properties: { ...v["properties"], tags: undefined } }], "anyOf"), request: ["request-restructured", "addition"], response: ["response-restructured", "breaking-code"], absent: notPerProperty },
];
/** Makes object schema `s` (in place) a union of the branches `make` builds from a copy of it. */
function toUnion(s: Doc, make: (v: Doc) => Doc[], k: "oneOf" | "anyOf" = "oneOf") {
  const v = JSON.parse(JSON.stringify(s)) as Doc;
  for (const key of Object.keys(s)) delete s[key];
  s[k] = JSON.parse(JSON.stringify(make(v)));
}
/** A copy of object schema `v` with a required tag property `flavor` of value `tag`. */
const variant = (v: Doc, tag: string): Doc => ({ ...v, required: [...v["required"], "flavor"], properties: { ...v["properties"], flavor: { type: "string", enum: [tag] } } });
for (const [format, base] of Object.entries(formats)) {
  for (const m of mutations) {
    cases.push({ name: `${format}: request schema: ${m.name}`, base, mutate: (d) => m.apply(d["components"].schemas.NewItem), expect: m.request, ...(m.absent ? { absent: m.absent } : {}) });
    cases.push({ name: `${format}: response schema: ${m.name}`, base, mutate: (d) => m.apply(d["components"].schemas.Item), expect: m.response, ...(m.absent ? { absent: m.absent } : {}) });
  }
  // a union of variants made one object again: the base has Item and NewItem as a oneOf of two tagged variants
  const unionBase = () => {
    const d = base();
    for (const k of ["Item", "NewItem"]) toUnion(d["components"].schemas[k], (v) => [variant(v, "x"), variant(v, "y")]);
    return d;
  };
  const merged = (v: Doc) => ({ ...v, properties: { ...v["properties"], flavor: { type: "string", enum: ["x", "y"] } } });
  /** The union made one object: `make` gets its first variant (tagged "x") and the variants merged (tag "x" or "y"). */
  const back = (k: string, make: (first: Doc, all: Doc) => Doc) => (d: Doc) => {
    const v = d["components"].schemas[k].oneOf[0];
    d["components"].schemas[k] = make(v, merged(v));
  };
  const requiring = (v: Doc): Doc => ({ ...v, required: [...v["required"], "color"], properties: { ...v["properties"], color: { type: "string" } } });
  const union = (name: string, k: string, make: (first: Doc, all: Doc) => Doc, expect: [string, ChangeClass], absent = notPerProperty) => cases.push({ name: `${format}: ${name}`, base: unionBase, mutate: back(k, make), expect, absent });
  union("request schema: a oneOf of variants made one object that accepts each", "NewItem", (_v, all) => all, ["request-restructured", "addition"]);
  union("request schema: a oneOf of variants made one object requiring a new property", "NewItem", (_v, all) => requiring(all), ["request-restructured", "breaking-wire"]);
  union("request schema: a oneOf of variants made one of them", "NewItem", (v) => v, ["request-restructured", "breaking-wire"]);
  union("response schema: a oneOf of variants made one of them", "Item", (v) => v, ["response-restructured", "breaking-code"]);
  union("response schema: a oneOf of variants made a value of another type", "Item", () => ({ type: "array", items: { type: "string" } }), ["response-type-widened", "breaking-wire"], ["response-property-removed"]);
}

// ---- OpenAPI operations ------------------------------------------------------------------------

const get = (d: Doc) => d["paths"]["/items/{id}"].get;
const post = (d: Doc) => d["paths"]["/items"].post;
const oa = (name: string, mutate: (d: Doc) => void, expect: [string, ChangeClass] | null) => cases.push({ name: `openapi: ${name}`, base: api, mutate, expect });
oa("an operation removed", (d) => delete d["paths"]["/items"], ["operation-removed", "breaking-wire"]);
oa("an operation added", (d) => (d["paths"]["/things"] = { get: { operationId: "listThings", responses: { "200": { description: "ok" } } } }), ["operation-added", "addition"]);
oa("an operation deprecated", (d) => (get(d).deprecated = true), ["operation-deprecated", "deprecation"]);
oa("a lifecycle marker (removed in a release)", (d) => (get(d)["x-avaspec-removed-in"] = "v2"), ["operation-deprecated", "deprecation"]);
oa("an operationId renamed", (d) => (get(d).operationId = "fetchItem"), ["method-renamed", "breaking-code"]);
oa("a path parameter renamed (same operation)", (d) => {
  d["paths"]["/items/{itemId}"] = d["paths"]["/items/{id}"];
  delete d["paths"]["/items/{id}"];
  get2(d).parameters[0].name = "itemId";
}, ["param-removed", "breaking-wire"]);
function get2(d: Doc) {
  return d["paths"]["/items/{itemId}"].get;
}
oa("a query parameter removed", (d) => get(d).parameters.pop(), ["param-removed", "breaking-wire"]);
oa("a required parameter added", (d) => get(d).parameters.push({ name: "region", in: "query", required: true, schema: { type: "string" } }), ["param-added-required", "breaking-wire"]);
oa("an optional parameter added", (d) => get(d).parameters.push({ name: "region", in: "query", schema: { type: "string" } }), ["param-added", "addition"]);
oa("a parameter made required", (d) => (get(d).parameters[1].required = true), ["param-became-required", "breaking-wire"]);
oa("a parameter moved from query to header", (d) => (get(d).parameters[1].in = "header"), ["param-moved", "breaking-wire"]);
oa("a parameter's style changed", (d) => ((get(d).parameters[1].style = "form"), (get(d).parameters[1].explode = false), (get(d).parameters[1].schema = { type: "array", items: { type: "integer" } })), ["param-style-changed", "breaking-wire"]);
oa("a parameter's pattern narrowed", (d) => ((get(d).parameters[0].schema.pattern = "^[a-z]+$"), 0), ["request-pattern-added", "breaking-wire"]);
cases.push({ name: "openapi: a pattern narrowed (a-z → a-f)", base: () => ((d) => ((get(d).parameters[0].schema.pattern = "^[a-z]+$"), d))(api()), mutate: (d) => (get(d).parameters[0].schema.pattern = "^[a-f]+$"), expect: ["request-pattern-changed", "breaking-wire"] });
cases.push({ name: "openapi: a pattern widened (a-f → a-fA-F) is no break", base: () => ((d) => ((get(d).parameters[0].schema.pattern = "^[a-f]+$"), d))(api()), mutate: (d) => (get(d).parameters[0].schema.pattern = "^[a-fA-F]+$"), expect: ["request-pattern-changed", "documentation"] });
oa("a parameter's maximum lowered", (d) => (get(d).parameters[1].schema.maximum = 10), ["request-bound-tightened", "breaking-wire"]);
oa("a parameter deprecated", (d) => (get(d).parameters[1].deprecated = true), ["param-deprecated", "deprecation"]);
oa("the request body made required", (d) => (post(d).requestBody.required = true), ["request-body-became-required", "breaking-wire"]);
oa("the request body removed", (d) => delete post(d).requestBody, ["request-body-removed", "breaking-wire"]);
oa("a required request body added", (d) => (get(d).requestBody = { required: true, content: { "application/json": { schema: { type: "object" } } } }), ["request-body-added-required", "breaking-wire"]);
oa("a request media type removed", (d) => (post(d).requestBody.content = { "application/x-www-form-urlencoded": post(d).requestBody.content["application/json"] }), ["request-media-type-removed", "breaking-wire"]);
oa("a success status removed", (d) => (post(d).responses = { "200": post(d).responses["201"] }), ["success-status-removed", "breaking-wire"]);
oa("a success status added", (d) => (get(d).responses["206"] = { description: "partial" }), ["success-status-added", "addition"]);
// error responses: callers handle the documented errors (as a JSON-RPC method's `errors`)
const withError = () => {
  const d = api();
  get(d).responses["404"] = { description: "not found", content: { "application/json": { schema: { type: "object", required: ["message"], properties: { message: { type: "string" }, code: { type: "integer" } } } } } };
  get(d).responses["default"] = { description: "error", content: { "application/json": { schema: { type: "object" } } } };
  return d;
};
const oe = (name: string, mutate: (d: Doc) => void, expect: [string, ChangeClass] | null) => cases.push({ name: `openapi: ${name}`, base: withError, mutate, expect });
oe("an error status removed", (d) => delete get(d).responses["404"], ["error-status-removed", "breaking-wire"]);
oe("the default (error) response removed", (d) => delete get(d).responses["default"], ["error-status-removed", "breaking-wire"]);
oe("an error status added", (d) => (get(d).responses["409"] = { description: "conflict" }), ["error-status-added", "addition"]);
oe("an error body's property removed", (d) => delete get(d).responses["404"].content["application/json"].schema.properties.code, ["response-property-removed", "breaking-wire"]);
oe("an error body's media type removed", (d) => delete get(d).responses["404"].content, ["response-media-type-removed", "breaking-wire"]);
// union branches pair by the schema they name: one removed from the middle is that one branch, not every later branch changed
const withUnion = () => {
  const d = api();
  const kinds = ["Red", "Green", "Blue"];
  for (const k of kinds) d["components"].schemas[k] = { type: "object", required: ["type"], properties: { type: { type: "string", enum: [k.toLowerCase()] }, [`${k.toLowerCase()}Level`]: { type: "integer" } } };
  post(d).requestBody.content["application/json"].schema = { type: "object", properties: { colour: { oneOf: kinds.map((k) => ({ $ref: `#/components/schemas/${k}` })) } } };
  get(d).responses["200"].content["application/json"].schema = { type: "object", properties: { colour: { oneOf: kinds.map((k) => ({ $ref: `#/components/schemas/${k}` })) } } };
  return d;
};
const colours = (d: Doc, dir: "request" | "response") => (dir === "request" ? post(d).requestBody.content["application/json"].schema : get(d).responses["200"].content["application/json"].schema).properties.colour.oneOf as Doc[];
cases.push({ name: "openapi: a request union's middle branch removed", base: withUnion, mutate: (d) => colours(d, "request").splice(1, 1), expect: ["request-union-branch-removed", "breaking-wire"], absent: ["request-enum-value-removed", "request-property-added-required"] });
cases.push({ name: "openapi: a response union's branch added in the middle", base: withUnion, mutate: (d) => colours(d, "response").splice(1, 0, { $ref: "#/components/schemas/Item" }), expect: ["response-union-branch-added", "breaking-wire"], absent: ["response-enum-value-added", "response-property-removed"] });
// OpenAPI 3.0: `nullable` on a union wraps it under the same pointer; what changes inside its branches is still seen
const withNullableUnion = () => {
  const d = api();
  d["openapi"] = "3.0.3";
  for (const k of ["Red", "Green"]) d["components"].schemas[k] = { type: "object", required: ["name"], properties: { name: { type: "string" } } };
  d["components"].schemas.Item.properties.colour = { nullable: true, oneOf: [{ $ref: "#/components/schemas/Red" }, { $ref: "#/components/schemas/Green" }] };
  return d;
};
cases.push({ name: "openapi 3.0: a property made optional in a branch of a nullable union", base: withNullableUnion, mutate: (d) => (d["components"].schemas.Green.required = []), expect: ["response-property-became-optional", "breaking-wire"] });
cases.push({ name: "openapi 3.0: a property removed from a branch of a nullable union", base: withNullableUnion, mutate: (d) => delete d["components"].schemas.Green.properties.name, expect: ["response-property-removed", "breaking-wire"] });
cases.push({ name: "openapi: a union's branches reordered is no break", base: withUnion, mutate: (d) => (colours(d, "request").reverse(), colours(d, "response").reverse()), expect: null });
// inline branches pair by content (issue 26, item 19): by structure, by their const or tag property, the untagged ones in order
const inlineUnion = (branches: () => Doc[]) => () => {
  const d = api();
  post(d).requestBody.content["application/json"].schema = { type: "object", properties: { mode: { oneOf: branches() } } };
  get(d).responses["200"].content["application/json"].schema = { type: "object", properties: { mode: { oneOf: branches() } } };
  return d;
};
const constBranches = inlineUnion(() => [{ const: "a" }, { const: "b" }, { const: "c" }]);
const taggedBranches = inlineUnion(() => ["x", "y", "z"].map((t) => ({ type: "object", required: ["kind"], properties: { kind: { type: "string", const: t }, [`${t}Level`]: { type: "integer" } } })));
const modes = (d: Doc, dir: "request" | "response") => (dir === "request" ? post(d).requestBody.content["application/json"].schema : get(d).responses["200"].content["application/json"].schema).properties.mode.oneOf as Doc[];
cases.push({ name: "openapi: a request union's inline middle branch removed (a const)", base: constBranches, mutate: (d) => modes(d, "request").splice(1, 1), expect: ["request-union-branch-removed", "breaking-wire"], absent: ["request-enum-value-removed"] });
cases.push({ name: "openapi: a request union's inline middle branch removed (a tag property)", base: taggedBranches, mutate: (d) => modes(d, "request").splice(1, 1), expect: ["request-union-branch-removed", "breaking-wire"], absent: ["request-enum-value-removed", "request-property-removed"] });
cases.push({ name: "openapi: a response union's inline branch's const changed", base: constBranches, mutate: (d) => (modes(d, "response")[2] = { const: "d" }), expect: ["response-union-branch-added", "breaking-wire"] });
cases.push({ name: "openapi: a union's inline branches reordered is no break", base: taggedBranches, mutate: (d) => (modes(d, "request").reverse(), modes(d, "response").reverse()), expect: null });
// a const is a one-value enum: changing it narrows a request and widens a response
const withConst = () => {
  const d = api();
  for (const k of ["Item", "NewItem"]) d["components"].schemas[k].properties.kind = { type: "string", const: "a" };
  return d;
};
cases.push({ name: "openapi: a request property's const changed", base: withConst, mutate: (d) => (d["components"].schemas.NewItem.properties.kind.const = "b"), expect: ["request-enum-value-removed", "breaking-wire"] });
cases.push({ name: "openapi: a response property's const changed", base: withConst, mutate: (d) => (d["components"].schemas.Item.properties.kind.const = "b"), expect: ["response-enum-value-added", "breaking-wire"] });
// the structure of a new type that reaches a recursive one (it overflowed the stack)
oa("a schema added that refers to a recursive one", (d) => {
  d["components"].schemas.Tree = { type: "object", properties: { children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } } };
  d["components"].schemas.Forest = { type: "object", properties: { trees: { type: "array", items: { $ref: "#/components/schemas/Tree" } } } };
}, ["schema-added", "addition"]);
oa("a response media type removed", (d) => (get(d).responses["200"].content = { "application/xml": get(d).responses["200"].content["application/json"] }), ["response-media-type-removed", "breaking-wire"]);
oa("a security requirement added", (d) => (get(d).security = [{ key: [] }]), ["security-added", "breaking-wire"]);
oa("a server removed", (d) => (d["servers"] = [{ url: "https://v2.api.example.com" }]), ["server-removed", "breaking-wire"]);
oa("a schema renamed (same structure)", (d) => {
  d["components"].schemas.Thing = d["components"].schemas.Item;
  delete d["components"].schemas.Item;
  get(d).responses["200"].content["application/json"].schema.$ref = "#/components/schemas/Thing";
  post(d).responses["201"].content["application/json"].schema.$ref = "#/components/schemas/Thing";
}, ["schema-renamed", "breaking-code"]);
oa("an unused schema removed", (d) => ((d["components"].schemas.Extra = { type: "string" }), 0), ["schema-added", "addition"]);
oa("a summary changed", (d) => (get(d).summary = "Read one item"), ["operation-description-changed", "documentation"]);
oa("the document's title changed", (d) => (d["info"].title = "Items, renamed"), ["document-title-changed", "documentation"]);
oa("the document's description changed", (d) => (d["info"].description = "All about items."), ["document-description-changed", "documentation"]);

// ---- OpenRPC methods ---------------------------------------------------------------------------

const m = (d: Doc, name: string) => d["methods"].find((x: Doc) => x["name"] === name);
const or = (name: string, mutate: (d: Doc) => void, expect: [string, ChangeClass] | null) => cases.push({ name: `openrpc: ${name}`, base: rpc, mutate, expect });
or("a method removed", (d) => (d["methods"] = d["methods"].filter((x: Doc) => x["name"] !== "put_item")), ["method-removed", "breaking-wire"]);
or("a method added", (d) => d["methods"].push({ name: "list_items", params: [], result: { name: "r", schema: { type: "array" } } }), ["method-added", "addition"]);
or("a method deprecated", (d) => (m(d, "get_item").deprecated = true), ["operation-deprecated", "deprecation"]);
or("params reordered", (d) => ((m(d, "get_item").params[1].required = true), m(d, "get_item").params.reverse()), ["params-reordered", "breaking-wire"]);
or("a param inserted before another", (d) => m(d, "get_item").params.splice(1, 0, { name: "depth", schema: { type: "integer" } }), ["param-inserted", "breaking-wire"]);
or("a param removed", (d) => m(d, "get_item").params.pop(), ["param-removed", "breaking-wire"]);
or("a required param added at the end", (d) => ((m(d, "get_item").params[1].required = true), m(d, "get_item").params.push({ name: "depth", required: true, schema: { type: "integer" } })), ["param-added-required", "breaking-wire"]);
or("an optional param added at the end", (d) => m(d, "get_item").params.push({ name: "depth", schema: { type: "integer" } }), ["param-added", "addition"]);
or("a param made required", (d) => (m(d, "get_item").params[1].required = true), ["param-became-required", "breaking-wire"]);
or("a param's schema narrowed", (d) => (m(d, "get_item").params[0].schema = { type: "string", maxLength: 8 }), ["request-bound-tightened", "breaking-wire"]);
or("a param deprecated", (d) => (m(d, "get_item").params[1].deprecated = true), ["param-deprecated", "deprecation"]);
or("paramStructure changed", (d) => (m(d, "put_item").paramStructure = "by-position"), ["param-structure-changed", "breaking-wire"]);
or("an error removed", (d) => (m(d, "get_item").errors = []), ["error-removed", "breaking-wire"]);
or("an error added", (d) => m(d, "get_item").errors.push({ code: -32001, message: "gone" }), ["error-added", "addition"]);
or("the result widened", (d) => (m(d, "put_item").result.schema = { type: ["boolean", "null"] }), ["response-type-widened", "breaking-wire"]);
or("an endpoint (server) removed", (d) => (d["servers"] = [{ name: "node", url: "https://rpc2.example.com/rpc" }]), ["server-removed", "breaking-wire"]);
or("a method renamed", (d) => (m(d, "get_item").name = "fetch_item"), ["method-removed", "breaking-wire"]);
or("a release marker added", (d) => (m(d, "get_item")["x-avaspec-deprecated-in"] = "v1.4.0"), ["operation-deprecated", "deprecation"]);
or("the document's description changed", (d) => (d["info"].description = "All about items."), ["document-description-changed", "documentation"]);

// ---- no-change cases: nothing breaking -----------------------------------------------------------

const reorder = (d: Doc) => JSON.parse(JSON.stringify(d, (_k, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)));
const none: { name: string; base: () => Doc; after: (d: Doc) => Doc }[] = [
  { name: "openapi: keys reordered", base: api, after: reorder },
  { name: "openrpc: keys reordered", base: rpc, after: reorder },
  {
    name: "openapi: an inline schema moved behind a $ref",
    base: api,
    after: (d) => ((d["components"].schemas.Limit = get(d).parameters[1].schema), (get(d).parameters[1].schema = { $ref: "#/components/schemas/Limit" }), d),
  },
  {
    name: "openrpc: an inline schema moved behind a $ref",
    base: rpc,
    after: (d) => ((d["components"].schemas.ItemId = m(d, "get_item").params[0].schema), (m(d, "get_item").params[0].schema = { $ref: "#/components/schemas/ItemId" }), d),
  },
  { name: "openapi: descriptions only", base: api, after: (d) => ((get(d).description = "Reads one item."), (d["components"].schemas.Item.description = "An item."), d) },
  { name: "openrpc: descriptions only", base: rpc, after: (d) => ((m(d, "get_item").description = "Reads one item."), (m(d, "get_item").params[0].description = "Its id."), d) },
  { name: "openrpc: the same document", base: rpc, after: (d) => d },
];

describe("avaspec diff rules", () => {
  it("the table has at least 80 change cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(80);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const before = c.base();
    const after = c.base();
    c.mutate(after);
    const changes = diff(before, after);
    if (c.expect === null) {
      expect(changes.filter((x) => x.class === "breaking-wire" || x.class === "breaking-code")).toEqual([]);
      return;
    }
    for (const rule of c.absent ?? []) expect(changes.filter((x) => x.rule === rule).map((x) => x.message)).toEqual([]);
    const [rule, cls] = c.expect;
    const found = changes.find((x) => x.rule === rule);
    expect(found, `${rule} among ${JSON.stringify(changes.map((x) => `${x.rule}/${x.class}`))}`).toBeDefined();
    expect(found!.class).toBe(cls);
    // every change says where: both sides' file:line:col and pointer as they apply
    for (const x of changes) for (const p of [x.old, x.new]) if (p) expect(p.line).toBeGreaterThan(0);
  });

  it.each(none.map((c) => [c.name, c] as const))("no change: %s", (_name, c) => {
    const changes = diff(c.base(), c.after(c.base()));
    expect(changes.filter((x) => x.class === "breaking-wire" || x.class === "breaking-code")).toEqual([]);
  });
});

describe("a shared schema", () => {
  it("is compared once per direction: a property removed from Item (the GET 200 and the POST 201 response) is one change", () => {
    const after = api();
    delete after["components"].schemas.Item.properties.size;
    const removed = diff(api(), after).filter((c) => c.rule === "response-property-removed");
    expect(removed.map((c) => c.old?.pointer)).toEqual(["#/components/schemas/Item/properties/size"]);
  });
});

describe("inline union branches (issue 26, item 19)", () => {
  const messages = (before: Doc, after: Doc) => diff(before, after).filter((c) => c.class === "breaking-wire").map((c) => `${c.rule}: ${c.message}`);

  it("name the branch removed from the middle, not the last one, and report nothing about the ones after it", () => {
    const after = constBranches();
    modes(after, "request").splice(1, 1);
    expect(messages(constBranches(), after)).toEqual(['request-union-branch-removed: request at body/mode: oneOf no longer has branch 1 (const "b")']);
    const tagged = taggedBranches();
    modes(tagged, "request").splice(1, 1);
    expect(messages(taggedBranches(), tagged)).toEqual(['request-union-branch-removed: request at body/mode: oneOf no longer has branch 1 (kind "y")']);
  });

  it("see a branch whose const changed as one gone and one new: the old value is refused, the new one unexpected", () => {
    const after = constBranches();
    modes(after, "request")[2] = { const: "d" };
    modes(after, "response")[2] = { const: "d" };
    // sorted by operation: GET /items/{id} answers the response, POST /items takes the request
    expect(messages(constBranches(), after)).toEqual([
      'response-union-branch-added: response at 200/mode: oneOf has 1 more branch: branch 2 (const "d")',
      'request-union-branch-removed: request at body/mode: oneOf no longer has branch 2 (const "c")',
    ]);
  });
});

describe("a schema that refers to itself (issue 27)", () => {
  // The C-Chain's debug_ tracing documents a call tree (libevm callFrame: `calls` holds call frames). Diffing a new
  // release that adds it once recursed without end in shape(), which compares new types with removed ones and union
  // branches by structure; the spec document declared `calls` items as plain objects to get around it.
  const frame = () => ({ type: "object", required: ["from"], properties: { from: { type: "string" }, calls: { type: "array", items: { $ref: "#/components/schemas/CallFrame" } } } });
  const traced = (withFrame: boolean): Doc => {
    const doc = rpc();
    const branches: Doc[] = [{ $ref: "#/components/schemas/Item" }, { description: "another tracer's output" }];
    if (withFrame) {
      doc["components"].schemas.CallFrame = frame();
      branches.splice(1, 0, { $ref: "#/components/schemas/CallFrame" });
    }
    doc["methods"].push({ name: "trace_call", paramStructure: "by-position", params: [], result: { name: "trace", schema: { anyOf: branches } } });
    return doc;
  };

  it("added in a new release (a new type, a new union branch) is compared to the end", () => {
    const changes = diff(traced(false), traced(true));
    expect(changes.filter((c) => c.rule === "schema-added").map((c) => c.message)).toEqual(["new type CallFrame"]);
    expect(changes.some((c) => c.rule === "response-union-branch-added")).toBe(true);
  });

  it("replacing a removed type of another name is found as a rename by its structure, recursion included", () => {
    const after = traced(true);
    const before = traced(true);
    before["components"].schemas.OldFrame = JSON.parse(JSON.stringify(frame()).replace("CallFrame", "OldFrame"));
    delete before["components"].schemas.CallFrame;
    before["methods"].at(-1).result.schema.anyOf[1] = { $ref: "#/components/schemas/OldFrame" };
    expect(diff(before, after).filter((c) => c.rule.startsWith("schema-")).map((c) => `${c.rule}: ${c.message}`)).toEqual(["schema-renamed: type OldFrame is now CallFrame"]);
  });
});

describe("avaspec diff on the command line", () => {
  const write = (name: string, doc: Doc) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(doc, null, 2));
    return file;
  };
  const before = write("before.json", api());
  const after = write("after.json", (() => {
    const d = api();
    get(d).parameters.pop();
    get(d).deprecated = true;
    return d;
  })());

  it("--allow-ref follows external $refs on both sides, as generate does (issue 27: the L1 document shares the C-Chain's)", () => {
    const shared = join(dir, "shared");
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, "common.json"), JSON.stringify({ components: { schemas: { Item: schemas().Item } } }));
    const refd = (required: string[]) => {
      const d = api();
      d["components"].schemas.Item = { $ref: "./shared/common.json#/components/schemas/Item" };
      writeFileSync(join(shared, "common.json"), JSON.stringify({ components: { schemas: { Item: { ...schemas().Item, required } } } }));
      return d;
    };
    const old = write("refd-old.json", refd(["id", "kind"]));
    const refused = runCli(["diff", old, old], dir);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/external \$ref "\.\/shared\/common\.json#\/components\/schemas\/Item" is not allowed \[ref\/external\]/);
    const same = runCli(["diff", old, old, "--allow-ref", "shared/", "--format", "json"], dir);
    expect(same.status, same.stderr).toBe(0);
    expect((JSON.parse(same.stdout) as { changes: Change[] }).changes).toEqual([]);
  });

  it("text by default, with both sides' file:line:col at #/pointer; exit 0 without --fail-on", () => {
    const r = runCli(["diff", before, after]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/breaking-wire\s+param-removed: GET \/items\/\{id\}: query parameter "limit" was removed\n\s+old: .*before\.json:\d+:\d+ at #\/paths\/~1items~1\{id\}\/get\/parameters\/1/);
    expect(r.stdout).toMatch(/1 breaking-wire, 0 breaking-code, 1 deprecation, 0 addition, \d+ documentation/);
  });

  it("--fail-on sets the exit code by severity", () => {
    expect(runCli(["diff", before, after, "--fail-on", "breaking-wire"]).status).toBe(1);
    expect(runCli(["diff", before, before, "--fail-on", "deprecation"]).status).toBe(0);
    const deprecatedOnly = write("deprecated.json", (() => {
      const d = api();
      get(d).deprecated = true;
      return d;
    })());
    expect(runCli(["diff", before, deprecatedOnly, "--fail-on", "breaking-code"]).status).toBe(0);
    expect(runCli(["diff", before, deprecatedOnly, "--fail-on", "deprecation"]).status).toBe(1);
  });

  it("--format json has a stable shape; --format markdown groups by class and operation", () => {
    const json = JSON.parse(runCli(["diff", before, after, "--format", "json"]).stdout) as { version: number; changes: Change[]; summary: Record<string, number> };
    expect(json.version).toBe(1);
    expect(json.summary["breaking-wire"]).toBe(1);
    expect(json.changes[0]).toMatchObject({ rule: "param-removed", class: "breaking-wire", operation: "GET /items/{id}", old: { line: expect.any(Number), col: expect.any(Number), pointer: "#/paths/~1items~1{id}/get/parameters/1" } });
    const md = runCli(["diff", before, after, "--format", "markdown"]).stdout;
    expect(md).toMatch(/^\*\*1 breaking-wire, 1 deprecation/);
    expect(md).toMatch(/### breaking-wire\n\n- `GET \/items\/\{id\}`\n  - GET \/items\/\{id\}: query parameter "limit" was removed \(`param-removed`/);
  });

  it("a broken side gets the usual diagnostic and exit 2; a usage error exit 2", () => {
    const broken = join(dir, "broken.yaml");
    writeFileSync(broken, "openapi: 3.1.0\ninfo: { title: T }\npaths: {}\n");
    const r = runCli(["diff", before, broken]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/broken\.yaml:\d+:\d+ at #\/info/);
    expect(runCli(["diff", before]).status).toBe(2);
    expect(runCli(["diff", before, after, "--format", "yaml"]).status).toBe(2);
  });

  // issue 26, item 19: these listed nonsense with exit 0, printed an empty file name, or the YAML parser's messages several times
  it("refuses an OpenAPI document against an OpenRPC one, exit 2", () => {
    const rpcFile = write("rpc.json", rpc());
    const r = runCli(["diff", before, rpcFile]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^avaspec: cannot compare \S*before\.json \(OpenAPI 3\.1\.0\) with \S*rpc\.json \(OpenRPC 1\.3\.2\): avaspec diff compares two versions of one OpenAPI document, or of one OpenRPC document\n/);
  });

  it("names a folder given for a spec file, exit 2", () => {
    const r = runCli(["diff", before, "."], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^avaspec: \. is a folder; give the spec file in it\n/);
    const absolute = runCli(["diff", dir, before]);
    expect(absolute.status).toBe(2);
    expect(absolute.stderr).toContain(`avaspec: ${dir} is a folder; give the spec file in it`);
  });

  it("reports a truncated JSON side once, in JSON's terms, at its file:line:col", () => {
    const text = JSON.stringify(api(), null, 2);
    const cut = write("cut.json", {});
    writeFileSync(cut, text.slice(0, text.indexOf('"components"')));
    const r = runCli(["diff", before, cut]);
    expect(r.status).toBe(2);
    const heads = r.stderr.split("\n").filter((l) => / at #/.test(l));
    expect(heads).toEqual([expect.stringMatching(/cut\.json:\d+:\d+ at #: the JSON text ends inside the object opened at line 1, column 1: it looks cut short \[load\/syntax\]$/)]);
  });

  const hasHistory = hasCommit("357391d");
  it.skipIf(!hasHistory)("--base reads the old version from git (this repository's own spec at an earlier commit; skipped in a shallow clone)", () => {
    const r = runCli(["diff", "spec/node-platform.openrpc.yaml", "--base", "357391d", "--format", "json"]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as { changes: Change[] };
    // the number policy (issue 17) marked the P-Chain's decimal integers: a breaking change for generated code
    expect(json.changes.some((c) => c.rule === "integer-marked" && c.class === "breaking-code")).toBe(true);
    expect(json.changes.find((c) => c.old)?.old?.file).toMatch(/^357391d:spec\/node-platform\.openrpc\.yaml$/);
  });
});
