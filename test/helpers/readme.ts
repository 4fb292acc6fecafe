/**
 * The TypeScript examples of a generated package's README, compiled against
 * that package's sources with the real compiler (TypeScript 7 is a native
 * binary without a compiler API: files go to a temporary folder and
 * `tsc --noEmit` runs on them).
 *
 * How the README's blocks make modules: every `## ` section is one module. Its
 * `ts` blocks are concatenated in order, their imports hoisted to the top;
 * the first block runs at the module's top level (a client section's setup),
 * every later one inside its own `{ … }` so that each example may declare
 * `const result` again while still using what the first block set up.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./cli.js";

const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

export interface ReadmeModule {
  heading: string;
  /** The module's text. */
  code: string;
  blocks: number;
}

/** The `ts` code blocks of a Markdown document, by `## ` section. */
export function readmeModules(markdown: string): ReadmeModule[] {
  const sections: { heading: string; blocks: string[] }[] = [];
  let current: { heading: string; blocks: string[] } = { heading: "(top)", blocks: [] };
  sections.push(current);
  const lines = markdown.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const open = /^(`{3,})(\S*)\s*$/.exec(line);
    if (open) {
      // a fence closes on a line of backticks at least as long as the opening
      const body: string[] = [];
      for (n++; n < lines.length && !new RegExp(`^\`{${open[1]!.length},}\\s*$`).test(lines[n]!); n++) body.push(lines[n]!);
      if (open[2] === "ts" || open[2] === "typescript") current.blocks.push(body.join("\n"));
      continue;
    }
    if (/^## /.test(line)) sections.push((current = { heading: line.slice(3), blocks: [] }));
  }
  return sections
    .filter((s) => s.blocks.length > 0)
    .map((s) => {
      const imports: string[] = [];
      const bodies = s.blocks.map((block, i) => {
        const rest: string[] = [];
        for (const l of block.split("\n")) (/^import\s/.test(l) ? imports : rest).push(l);
        const text = rest.join("\n").trim();
        return i === 0 ? text : `{\n${text}\n}`;
      });
      return { heading: s.heading, code: [...new Set(imports), "", ...bodies, "", "export {};", ""].join("\n"), blocks: s.blocks.length };
    });
}

export interface ReadmeCheck {
  status: number | null;
  /** tsc's diagnostics, each with the section it is in. */
  output: string;
  modules: ReadmeModule[];
}

/**
 * Type-checks a README's examples against a package: `name` and `name/*` map to
 * the package's `src/`, Node's types are on (the examples run in Node, `process.env`
 * included), and `msw` and `@modelcontextprotocol/sdk` resolve from this repository's node_modules.
 */
export function typecheckReadme(markdown: string, packageDir: string, packageName: string): ReadmeCheck {
  const modules = readmeModules(markdown);
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  // inside the repository, so that msw and @types/node resolve from its node_modules
  const dir = mkdtempSync(join(ROOT, ".tmp", "readme-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "readme-examples", private: true, type: "module" }));
    const files = modules.map((m, i) => {
      const file = `section-${String(i + 1).padStart(2, "0")}.ts`;
      writeFileSync(join(dir, file), `// ${m.heading.replace(/\r?\n/g, " ")}\n${m.code}`);
      return file;
    });
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2022", "DOM"],
          types: ["node"],
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          // the MCP SDK and the sandbox's packages (the mcp entry's optional peers) from this repository, also for a package outside it
          paths: { [packageName]: [join(packageDir, "src/index.ts")], [`${packageName}/*`]: [join(packageDir, "src/*/index.ts")], "@modelcontextprotocol/sdk/*": [join(ROOT, "node_modules/@modelcontextprotocol/sdk/dist/esm/*")], ...Object.fromEntries(["quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "sucrase"].map((p) => [p, [join(ROOT, "node_modules", p, (JSON.parse(readFileSync(join(ROOT, "node_modules", p, "package.json"), "utf8")) as { types: string }).types)]])) },
        },
        files,
      }),
    );
    const r = spawnSync(process.execPath, [TSC, "-p", join(dir, "tsconfig.json"), "--pretty", "false"], { encoding: "utf8" });
    // name each diagnostic's section, so a failure reads without the temporary files
    const output = (r.stdout + r.stderr).replace(/section-(\d+)\.ts\((\d+),(\d+)\)/g, (_, i: string, line: string, col: string) => {
      const m = modules[Number(i) - 1]!;
      const text = readFileSync(join(dir, `section-${i}.ts`), "utf8").split("\n")[Number(line) - 1] ?? "";
      return `[## ${m.heading}] line ${line}:${col} \`${text.trim()}\``;
    });
    return { status: r.status, output, modules };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
