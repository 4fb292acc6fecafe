/**
 * The diff rules for the document as a whole: servers removed, its title and
 * description, and its named schemas (a type that left and one that came with
 * the same structure is a rename, not a removal and an addition).
 */
import type { IrNamedSchema } from "../ir/types.js";
import { shape } from "./branches.js";
import type { ChangeList } from "./changes.js";

export function diffDocument(changes: ChangeList, oldByKey: Map<string, IrNamedSchema>, newByKey: Map<string, IrNamedSchema>): void {
  const newServers = new Set(changes.newSide.ir.servers.map((s) => s.url));
  changes.oldSide.ir.servers.forEach((s, i) => {
    if (!newServers.has(s.url)) changes.add("server-removed", "breaking-wire", `server ${s.url} was removed`, { old: [undefined, `#/servers/${i}`] });
  });
  // the document's own title and description: its README and doc comments
  const [oi, ni] = [changes.oldSide.ir.info, changes.newSide.ir.info];
  if (oi.title !== ni.title) changes.add("document-title-changed", "documentation", `the title changed from ${JSON.stringify(oi.title)} to ${JSON.stringify(ni.title)}`, { old: [undefined, "#/info/title"], new: [undefined, "#/info/title"] });
  if ((oi.description ?? "") !== (ni.description ?? "")) changes.add("document-description-changed", "documentation", "the document's description changed", { old: [undefined, oi.description !== undefined ? "#/info/description" : "#/info"], new: [undefined, ni.description !== undefined ? "#/info/description" : "#/info"] });
  const newNames = new Map(changes.newSide.ir.schemas.map((s) => [s.name, s]));
  const oldNames = new Map(changes.oldSide.ir.schemas.map((s) => [s.name, s]));
  const fresh = changes.newSide.ir.schemas.filter((s) => !oldNames.has(s.name));
  const gone = changes.oldSide.ir.schemas.filter((s) => !newNames.has(s.name));
  // structures computed once: a type renamed is one that left and one that came with the same structure
  const freshByShape = new Map<string, IrNamedSchema>();
  for (const f of fresh) {
    const k = JSON.stringify(shape(f.schema, newByKey));
    if (!freshByShape.has(k)) freshByShape.set(k, f);
  }
  const renamedTo = new Set<IrNamedSchema>();
  for (const s of gone) {
    const same = freshByShape.get(JSON.stringify(shape(s.schema, oldByKey)));
    if (same && !renamedTo.has(same)) {
      renamedTo.add(same);
      changes.add("schema-renamed", "breaking-code", `type ${s.name} is now ${same.name}`, { old: [undefined, s.pointer], new: [undefined, same.pointer] });
    } else changes.add("schema-removed", "breaking-code", `type ${s.name} is no longer generated`, { old: [undefined, s.pointer] });
  }
  for (const s of fresh) if (!renamedTo.has(s)) changes.add("schema-added", "addition", `new type ${s.name}`, { new: [undefined, s.pointer] });
}
