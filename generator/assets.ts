/**
 * Files the generator reads at run time (the runtime it copies into every
 * package, the Handlebars templates) live in the avaspec package root, both
 * when it runs from these sources and from the bundled `dist/cli.mjs`: the
 * root is the nearest folder upwards holding avaspec's own package.json.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

let root: string | undefined;

export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "avaspec") return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error("internal: avaspec's package.json not found above " + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** A folder of the avaspec package, as a file URL ending in "/". */
export function assetDir(name: "runtime" | "templates"): URL {
  return pathToFileURL(join(packageRoot(), name) + "/");
}
