/**
 * JSON Schema resources: base URIs from `$id`, anchors (`$anchor`,
 * `$dynamicAnchor`, draft-07's `$id: "#name"`), and references resolved
 * against them, within one document and across a set of preloaded ones.
 * This is the one resolver: every loaded document resolves its `$ref`s here
 * (LoadedDocument.resolve), and the JSON-Schema-Test-Suite harness runs the
 * same class over the suite's documents. A document without `$id` keeps the
 * plain reading: its base is the document itself and fragments are pointers.
 */
import * as ptr from "./pointer.js";
import { isDataMember, NAME_MAPS } from "./vocabulary.js";

/**
 * How `$id` is read. `2020-12` (OpenAPI 3.1): it starts a resource with its
 * own base URI. `draft-07` (OpenRPC): the same, except beside a `$ref`, which
 * makes draft-07 ignore its siblings. `openapi-3.0`: OpenAPI 3.0 schemas have
 * no `$id`, so it never moves the base. In every mode `$anchor`,
 * `$dynamicAnchor` and an `$id` that is only a fragment (`#name`) name an anchor.
 */
export type IdRules = "2020-12" | "draft-07" | "openapi-3.0";

/** The rules for a document by what it declares (an OpenAPI or OpenRPC root; anything else is JSON Schema 2020-12). */
export function idRulesOf(root: unknown): IdRules {
  const r = isObj(root) ? root : {};
  if (typeof r["openrpc"] === "string") return "draft-07";
  if (typeof r["openapi"] === "string" && r["openapi"].startsWith("3.0")) return "openapi-3.0";
  return "2020-12";
}

/**
 * The base URI of a loaded document. Not its file's URL: a `$ref` naming the
 * file (`api.yaml#/…`) is an external reference, bundled like any other, so
 * the copy of the document a package ships still resolves on its own.
 */
export const DOCUMENT_URI = "avaspec:/document";

/**
 * The base URI of a loaded document: OpenAPI 3.2's `$self` when it declares
 * one (read against DOCUMENT_URI when relative), so that a `$ref` naming the
 * document by its `$self` (`https://example.com/api.yaml#/components/…`) is
 * local; DOCUMENT_URI otherwise. A relative `$ref` to another file is still
 * looked for beside the file, as its relative path says (bundle.ts).
 */
export function documentUri(root: unknown): string {
  const own = isObj(root) && typeof root["openapi"] === "string" && /^3\.2\./.test(root["openapi"]) ? root["$self"] : undefined;
  const uri = typeof own === "string" && !own.includes("#") ? join(DOCUMENT_URI, own) : undefined;
  return uri ?? DOCUMENT_URI;
}

export interface ResolvedRef<D> {
  doc: D;
  pointer: string;
  /** The node there. */
  value: unknown;
  /**
   * Set when the ref is a pointer fragment (`#/components/…`) written inside
   * a schema with an `$id` of its own, which found nothing in that resource
   * (its base URI, given here) and was read as a pointer into the document,
   * as tools that ignore `$id` read it.
   */
  outside?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function join(base: string, ref: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

const stripFragment = (uri: string) => {
  const hash = uri.indexOf("#");
  return hash < 0 ? uri : uri.slice(0, hash);
};

export class SchemaResources<D extends { root: unknown }> {
  private readonly resources = new Map<string, ResolvedRef<D>>();
  private readonly anchors = new Map<string, ResolvedRef<D>>();
  /** Per document: the base URI of each resource root in it, by pointer ("#" always). */
  private readonly bases = new Map<D, Map<string, string>>();

  /**
   * @param docs   the documents, each with the URI it was retrieved from
   * @param rules  how `$id` is read
   * @param parent preloaded documents consulted when a URI is not found here
   */
  constructor(
    docs: { doc: D; uri: string }[],
    private readonly rules: IdRules,
    private readonly parent?: SchemaResources<D>,
  ) {
    for (const { doc, uri } of docs) this.index(doc, uri);
  }

  private resource(uri: string): ResolvedRef<D> | undefined {
    return this.resources.get(uri) ?? this.parent?.resource(uri);
  }

  private anchor(uri: string): ResolvedRef<D> | undefined {
    return this.anchors.get(uri) ?? this.parent?.anchor(uri);
  }

  private addAnchor(uri: string, at: ResolvedRef<D>): void {
    // the first of a name wins: a name used twice in one resource is the document's mistake, read the same way every time
    if (!this.anchors.has(uri)) this.anchors.set(uri, at);
  }

  private index(doc: D, uri: string): void {
    const root = stripFragment(uri);
    const bases = new Map<string, string>([["#", root]]);
    this.bases.set(doc, bases);
    this.resources.set(root, { doc, pointer: "#", value: doc.root });
    const walk = (node: Record<string, unknown>, pointer: string, base: string, inNameMap: boolean): void => {
      let here = base;
      if (!inNameMap) {
        const id = node["$id"];
        // draft-07 ignores every sibling of a $ref
        if (typeof id === "string" && !(this.rules === "draft-07" && typeof node["$ref"] === "string")) {
          if (id.startsWith("#")) {
            if (id.length > 1) this.addAnchor(`${base}${id}`, { doc, pointer, value: node });
          } else if (this.rules !== "openapi-3.0") {
            const resolved = join(base, id);
            if (resolved) {
              here = stripFragment(resolved);
              this.resources.set(here, { doc, pointer, value: node });
              bases.set(pointer, here);
              if (resolved.length > here.length + 1) this.addAnchor(resolved, { doc, pointer, value: node });
            }
          }
        }
        for (const key of ["$anchor", "$dynamicAnchor"]) {
          const a = node[key];
          if (typeof a === "string" && a !== "") this.addAnchor(`${here}#${a}`, { doc, pointer, value: node });
        }
      }
      for (const k of Object.keys(node)) {
        const v = node[k];
        if (typeof v !== "object" || v === null) continue;
        if (!inNameMap && isDataMember(k, v)) continue;
        if (Array.isArray(v)) {
          v.forEach((item, i) => {
            if (isObj(item)) walk(item, ptr.join(pointer, k, i), here, false);
          });
        } else walk(v as Record<string, unknown>, ptr.join(pointer, k), here, !inNameMap && NAME_MAPS.has(k));
      }
    };
    if (isObj(doc.root)) walk(doc.root, "#", root, false);
  }

  /** Base URI in force at a pointer (that of the nearest enclosing resource). */
  baseAt(doc: D, pointer: string): string {
    const bases = this.bases.get(doc);
    if (!bases) return this.parent ? this.parent.baseAt(doc, pointer) : "";
    // most documents have no resource but themselves
    if (bases.size === 1) return bases.get("#")!;
    for (let p = pointer; ; p = p.slice(0, p.lastIndexOf("/"))) {
      const b = bases.get(p);
      if (b !== undefined) return b;
      if (!p.includes("/")) return bases.get("#")!;
    }
  }

  /** The node at a pointer fragment (`/a/b`, URI-encoded as written in a `$ref`) of the resource at `uri`. */
  private atPointer(uri: string, fragment: string): ResolvedRef<D> | undefined {
    const resource = this.resource(uri);
    if (!resource) return undefined;
    // within the resource: its own node, then the fragment's tokens
    const tokens = ptr.parse(`#${fragment}`, true);
    if (!tokens) return undefined;
    const found = ptr.get(resource.value, tokens);
    if (!found.found) return undefined;
    // the pointer as ours are written (tokens escaped, not URI-encoded): as given when that is what it is
    const tail = fragment.includes("%") || fragment.includes("~") ? tokens.map((t) => "/" + ptr.escapeToken(t)).join("") : fragment;
    return { doc: resource.doc, pointer: resource.pointer === "#" ? `#${tail}` : `${resource.pointer}${tail}`, value: found.value };
  }

  /** Resolves `ref` written in the object at `pointer` of `doc`. */
  resolve(doc: D, pointer: string, ref: string): ResolvedRef<D> | undefined {
    const base = this.baseAt(doc, pointer);
    let uri: string;
    let fragment: string;
    if (ref.startsWith("#")) {
      // a fragment of the base itself: no URL to parse (a big document has tens of thousands of these)
      uri = base;
      fragment = ref.slice(1);
    } else {
      const full = join(base, ref);
      if (!full) return undefined;
      uri = stripFragment(full);
      fragment = full.slice(uri.length + 1);
    }
    if (fragment === "" || fragment.startsWith("/")) {
      const found = this.atPointer(uri, fragment);
      if (found || !ref.startsWith("#/")) return found;
      const documentUri = this.bases.get(doc)?.get("#");
      if (documentUri === undefined || documentUri === uri) return undefined;
      const lenient = this.atPointer(documentUri, fragment);
      return lenient && { ...lenient, outside: uri };
    }
    let name: string;
    try {
      name = decodeURIComponent(fragment);
    } catch {
      return undefined;
    }
    return this.anchor(`${uri}#${name}`);
  }
}
