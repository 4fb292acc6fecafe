/**
 * How the benches run avaspec: as JavaScript, like the peers. The entry (a
 * bench's `…-avaspec.ts` module of what it takes from avaspec) is bundled by
 * esbuild, unminified, ES2022, as the published package's compiled dist/ is:
 * tsx's transform adds a `__name(fn, "…")` call to every function expression
 * it creates, and the runtime creates closures per call and per streamed
 * item, so under tsx avaspec would pay for wrappers that neither dist/ nor
 * the peers' JavaScript has. BENCH_AVASPEC=source imports the TypeScript
 * through tsx instead.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

export const avaspecMode = process.env["BENCH_AVASPEC"] === "source" ? "source (tsx)" : "bundled (esbuild)";

export async function loadAvaspec<T>(entry: URL, name: string, source: () => Promise<T>): Promise<T> {
  if (process.env["BENCH_AVASPEC"] === "source") return source();
  const outfile = fileURLToPath(new URL(`../.tmp/bench-${name}/avaspec.mjs`, import.meta.url));
  await build({ entryPoints: [fileURLToPath(entry)], outfile, bundle: true, format: "esm", platform: "node", target: "es2022", logLevel: "warning" });
  return (await import(pathToFileURL(outfile).href)) as T;
}
