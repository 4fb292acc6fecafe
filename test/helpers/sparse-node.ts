/**
 * A node whose logs are sparse (`keep(n)`: the blocks that have one), each
 * log the synthetic chain's for its block: a scan over a million blocks
 * moves thousands of logs, not a million. `eth_blockNumber` answers the
 * synthetic chain's head; everything else is the inner mock service's.
 * `getLogs` counts the eth_getLogs calls it answered.
 */
import { syntheticChain } from "../../runtime/mock/chain.js";
import type { MockRequest, MockService } from "../../runtime/mock/types.js";

export function sparseNode(inner: MockService, keep: (n: number) => boolean) {
  const chain = syntheticChain({ now: () => Date.UTC(2026, 0, 1) });
  const seen = { getLogs: 0 };
  const answer = (id: unknown, result: unknown, handled: string) => ({ status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id, result }), handled });
  const handle = async (request: MockRequest) => {
    const call = request.method === "POST" && request.body ? (JSON.parse(request.body) as { id?: unknown; method?: string; params?: unknown[] }) : undefined;
    if (call && !Array.isArray(call) && call.method === "eth_getLogs") {
      seen.getLogs++;
      const f = (call.params?.[0] ?? {}) as { fromBlock: string; toBlock: string };
      const logs: unknown[] = [];
      for (let n = parseInt(f.fromBlock, 16); n <= parseInt(f.toBlock, 16); n++) {
        if (!keep(n)) continue;
        const one = chain.answer("/ext/bc/C/rpc", "eth_getLogs", [{ fromBlock: "0x" + n.toString(16), toBlock: "0x" + n.toString(16) }]) as { result: unknown[] };
        logs.push(...one.result);
      }
      return answer(call.id, logs, "eth_getLogs");
    }
    if (call && !Array.isArray(call) && call.method === "eth_blockNumber") return answer(call.id, "0x" + chain.head("/ext/bc/C/rpc").toString(16), "eth_blockNumber");
    return inner.handle(request);
  };
  return { handle, seen };
}
