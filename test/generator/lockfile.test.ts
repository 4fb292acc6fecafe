/**
 * package-lock.json records the root package and the generated workspace as
 * their package.json files say. When a regeneration changes
 * generated/package.json (a version bump, a new devDependency) the lockfile
 * must be refreshed with it (`npm install`), or `npm install` on a fresh clone
 * rewrites it and leaves `git status` dirty.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8")) as Record<string, unknown>;
const FIELDS = ["name", "version", "license", "bin", "dependencies", "devDependencies", "peerDependencies", "peerDependenciesMeta", "optionalDependencies", "engines", "workspaces"];
const recorded = (pkg: Record<string, unknown>) => Object.fromEntries(FIELDS.filter((f) => pkg[f] !== undefined).map((f) => [f, f === "bin" && typeof pkg[f] === "object" ? Object.fromEntries(Object.entries(pkg[f] as Record<string, string>).map(([k, v]) => [k, v.replace(/^\.\//, "")])) : pkg[f]]));

it.each([
  ["", "package.json"],
  ["generated", "generated/package.json"],
])("package-lock.json records %j as %s says (run `npm install` after a change)", (key, file) => {
  const lock = json("package-lock.json") as { packages: Record<string, Record<string, unknown>> };
  expect(recorded(lock.packages[key]!)).toEqual(recorded(json(file)));
});
