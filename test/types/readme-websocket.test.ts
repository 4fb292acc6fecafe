/**
 * Issue 30: the README's WebSocket example, as it stands in README.md, type-checks
 * with the `ws` package's own types (Node 20 has no global WebSocket): its
 * WebSocket class did not fit `webSocket.WebSocket` (TypeScript's weak-type
 * check refused `ws`'s ErrorEvent against the event type the transport reads).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT, typecheckAgainstGenerated } from "../helpers/cli.js";

it("the README's WebSocket block compiles with `ws`'s types, strict", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### WebSocket: the C-Chain `ws` endpoint"));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  expect(block, "the section's first ts block").toContain('import WebSocket from "ws"');
  // what the block leaves to the reader: the client import and the values it uses
  const code = `${block}
import { createNodeClient } from "@avaspec/client/node";
declare const token: \`0x\${string}\`;
declare const store: { add(log: unknown): void; dropFrom(block: bigint): void };
export {};
`;
  expect(typecheckAgainstGenerated({ "readme-ws.ts": code })).toBe("");
});
