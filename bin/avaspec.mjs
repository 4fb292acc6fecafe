#!/usr/bin/env node
// The avaspec command: the bundled CLI (dist/cli.mjs, built by `npm run build:cli`
// and on `npm pack`). Node 22.1+ keeps the compiled code of its dependencies in
// its on-disk compile cache, which most of a cold start is spent on.
import module from "node:module";
import { existsSync } from "node:fs";

module.enableCompileCache?.();
const cli = new URL("../dist/cli.mjs", import.meta.url);
if (!existsSync(cli)) {
  console.error("avaspec: dist/cli.mjs is missing; in a clone of the avaspec repository run `npm run build:cli` first");
  process.exit(2);
}
await import(cli.href);
