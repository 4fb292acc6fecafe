/**
 * JSON Schema resources: base URIs from `$id`, `$anchor` / draft-07 `#name`
 * ids, and references resolved against them, within one document and across
 * a set of preloaded documents. OpenAPI/OpenRPC documents without `$id` keep
 * working as before: every base is the document itself, fragments are pointers.
 */
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";

export interface ResolvedRef {
  doc: LoadedDocument;
  pointer: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keys whose values are data, never subschemas. */
const DATA = new Set(["enum", "const", "examples", "example", "default"]);
/** Keys whose values map names to subschemas (their own keys are names, not keywords). */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies", "schemas"]);

function join(base: string, ref: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

const stripFragment = (uri: string) => uri.replace(/#.*$/, "");

export class SchemaResources {
  private readonly resources = new Map<string, ResolvedRef>();
  private readonly anchors = new Map<string, ResolvedRef>();
  private readonly bases = new Map<LoadedDocument, Map<string, string>>();

  /**
   * @param docs  the documents, each with the URI it was retrieved from
   * @param draft7 draft-07 semantics: `$id: "#name"` is an anchor
   */
  constructor(
    docs: { doc: LoadedDocument; uri: string }[],
    private readonly draft7: boolean,
    /** Preloaded documents consulted when a URI is not found here. */
    private readonly parent?: SchemaResources,
  ) {
    for (const { doc, uri } of docs) this.index(doc, uri);
  }

  private resource(uri: string): ResolvedRef | undefined {
    return this.resources.get(uri) ?? this.parent?.resource(uri);
  }

  private anchor(uri: string): ResolvedRef | undefined {
    return this.anchors.get(uri) ?? this.parent?.anchor(uri);
  }

  private index(doc: LoadedDocument, uri: string): void {
    const bases = new Map<string, string>();
    this.bases.set(doc, bases);
    this.resources.set(stripFragment(uri), { doc, pointer: "#" });
    const walk = (node: unknown, pointer: string, base: string, inNameMap: boolean): void => {
      if (Array.isArray(node)) {
        node.forEach((v, i) => walk(v, ptr.join(pointer, i), base, false));
        return;
      }
      if (!isObj(node)) return;
      let here = base;
      if (!inNameMap) {
        const id = node["$id"] ?? (this.draft7 ? node["id"] : undefined);
        if (typeof id === "string" && !(this.draft7 && typeof node["$ref"] === "string")) {
          if (this.draft7 && id.startsWith("#")) {
            this.anchors.set(`${stripFragment(base)}${id}`, { doc, pointer });
          } else {
            const resolved = join(base, id);
            if (resolved) {
              here = stripFragment(resolved);
              this.resources.set(here, { doc, pointer });
              if (resolved.includes("#") && resolved.split("#")[1] !== "") this.anchors.set(resolved, { doc, pointer });
            }
          }
        }
        for (const key of ["$anchor", "$dynamicAnchor"]) {
          const a = node[key];
          if (typeof a === "string") this.anchors.set(`${here}#${a}`, { doc, pointer });
        }
        bases.set(pointer, here);
      }
      for (const [k, v] of Object.entries(node)) {
        if (!inNameMap && DATA.has(k)) continue;
        walk(v, ptr.join(pointer, k), here, !inNameMap && NAME_MAPS.has(k));
      }
    };
    walk(doc.root, "#", stripFragment(uri), false);
  }

  /** Base URI in force at a pointer (that of the nearest enclosing resource). */
  baseAt(doc: LoadedDocument, pointer: string): string {
    if (!this.bases.has(doc) && this.parent) return this.parent.baseAt(doc, pointer);
    const bases = this.bases.get(doc);
    for (let p = pointer; ; p = p.slice(0, p.lastIndexOf("/"))) {
      const b = bases?.get(p);
      if (b !== undefined) return b;
      if (!p.includes("/")) return bases?.get("#") ?? "";
    }
  }

  /** Resolves `ref` written in the schema object at `pointer` of `doc`. */
  resolve(doc: LoadedDocument, pointer: string, ref: string): ResolvedRef | undefined {
    const full = join(this.baseAt(doc, pointer), ref);
    if (!full) return undefined;
    const hash = full.indexOf("#");
    const uri = hash < 0 ? full : full.slice(0, hash);
    const fragment = hash < 0 ? "" : full.slice(hash + 1);
    if (fragment === "" || fragment.startsWith("/")) {
      const resource = this.resource(uri);
      if (!resource) return undefined;
      const target = resource.pointer === "#" ? `#${fragment}` : `${resource.pointer}${fragment}`;
      // re-encode the pointer as our pointers are written (tokens escaped, not URI-encoded)
      const tokens = ptr.parse(target, true);
      if (!tokens) return undefined;
      const found = ptr.get(resource.doc.root, tokens);
      return found.found ? { doc: resource.doc, pointer: "#" + tokens.map((t) => "/" + ptr.escapeToken(t)).join("") } : undefined;
    }
    let name = fragment;
    try {
      name = decodeURIComponent(fragment);
    } catch {
      return undefined;
    }
    return this.anchor(`${uri}#${name}`);
  }
}
