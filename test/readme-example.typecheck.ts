// Type-checked by `npm run typecheck`: the README's node example must compile against the generated client.
import { createNodeClient } from "@avaspec/client/node";

export async function readmeNodeExample(): Promise<void> {
  const node = createNodeClient({ baseUrl: "http://127.0.0.1:9650" });
  const { version } = await node.info.getNodeVersion();
  const validators = await node.platform.getCurrentValidators({ nodeIDs: ["NodeID-…"] });
  const balance = await node.cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "latest" });
  await node.cChain.admin.setLogLevel({ level: "info" });
  const last = await node.index.cBlock.getLastAccepted({ encoding: "hex" });
  const health = await node.http.getHealth({ tag: ["11111111111111111111111111111111LpoYY"] });
  const [id, height] = await node.batch((n) => [n.info.getNodeID(), n.cChain.eth.blockNumber()] as const);
  if (id.ok) console.log(id.value.nodeID);
  if (height.ok) console.log(height.value.startsWith("0x"));
  console.log(version, validators.validators.length, balance, last.id, health.healthy);
}
