/**
 * The benchmark payloads and the validators compared on them: avaspec's
 * generated ones, Ajv compiled from the same spec documents, zod built from
 * the same schemas. Payloads come from the specs' own examples, scaled to
 * realistic sizes.
 */
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isBlockchain, isGetTransactionResponse, isListErc20TransactionsResponse, validateBlockchain, validateGetTransactionResponse, validateListErc20TransactionsResponse } from "../generated/src/data-api/validators.js";
import { isCurrentValidatorsResult, validateCurrentValidatorsResult } from "../generated/src/node/validators.js";
import { toZod } from "./json-schema-to-zod.js";

export interface Payload {
  id: string;
  name: string;
  value: unknown;
  /** avaspec's type guard (a boolean, like ajv) */
  guard: (v: unknown) => boolean;
  /** avaspec's validateX (a result object, like zod's safeParse) */
  avaspec: (v: unknown) => { ok: boolean };
  ajv: (v: unknown) => boolean;
  zod: () => { safeParse(v: unknown): { success: boolean } };
}

const read = (f: string) => JSON.parse(readFileSync(new URL(`../generated/spec/${f}`, import.meta.url), "utf8"));
const data = read("data-api.openapi.json");
const platform = read("node-platform.openrpc.json");
const ok = (path: string, method = "get") => data.paths[path][method].responses["200"].content["application/json"].example;

const transfer = ok("/v1/chains/{chainId}/addresses/{address}/transactions:listErc20").transactions[0];
const erc20Page = { nextPageToken: "4d8b5f2e-7a13-4c09-b6e1-2f9a0c3d5e71", transactions: Array.from({ length: 100 }, (_, i) => ({ ...transfer, logIndex: i, blockNumber: String(6479329 + i) })) };
const txDetails = ok("/v1/chains/{chainId}/transactions/{txHash}");
const blockchain = ok("/v1/networks/{network}/blockchains").blockchains.find((b: { genesisData?: unknown }) => b.genesisData);
const validators = platform.methods.find((m: { name: string }) => m.name === "platform.getCurrentValidators").examples.map((e: { result: { value: unknown } }) => e.result.value).find((v: unknown) => JSON.stringify(v).includes("delegators"));

const ajvData = new Ajv2020({ strict: false, validateFormats: false });
ajvData.addSchema({ ...data, $id: "data" }, "data");
const ajvNode = new Ajv.default({ strict: false, validateFormats: false });
ajvNode.addSchema({ $id: "platform", components: platform.components }, "platform");
const ajv = (doc: "data" | "platform", schema: string) => (doc === "data" ? ajvData : ajvNode).getSchema(`${doc}#/components/schemas/${schema}`)! as (v: unknown) => boolean;

export const payloads: Payload[] = [
  { id: "erc20-page", name: "ERC-20 page (100 transfers)", value: erc20Page, guard: isListErc20TransactionsResponse, avaspec: validateListErc20TransactionsResponse, ajv: ajv("data", "ListErc20TransactionsResponse"), zod: () => toZod(data.components.schemas.ListErc20TransactionsResponse, data) },
  { id: "transaction", name: "Transaction details", value: txDetails, guard: isGetTransactionResponse, avaspec: validateGetTransactionResponse, ajv: ajv("data", "GetTransactionResponse"), zod: () => toZod(data.components.schemas.GetTransactionResponse, data) },
  { id: "blockchain", name: "Blockchain with genesisData", value: blockchain, guard: isBlockchain, avaspec: validateBlockchain, ajv: ajv("data", "Blockchain"), zod: () => toZod(data.components.schemas.Blockchain, data) },
  { id: "validators", name: "getCurrentValidators with delegators", value: validators, guard: isCurrentValidatorsResult, avaspec: validateCurrentValidatorsResult, ajv: ajv("platform", "CurrentValidatorsResult"), zod: () => toZod(platform.components.schemas.CurrentValidatorsResult, platform) },
];
