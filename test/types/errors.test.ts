/**
 * Issue 30 (2, 3), at the type level, by the real tsc: a caught `unknown`
 * narrowed without casts by an operation's generated guard, then by
 * `statusCode`, to the body its spec declares for that status (the shop
 * fixture's problem+json 404, its 422's own body, `default`'s other
 * statuses, a range); the Data API's error body typed; and `withResponse`
 * typing the body beside status and headers, in the client object and the
 * functional form (its number policy kept). Each `@ts-expect-error` must be an
 * error. test/client/shop-errors.test.ts runs the same calls.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, typecheckAgainstGenerated } from "../helpers/cli.js";

const shop = `import { withResponse, type ApiError, type ApiResponse } from "@avaspec/client";
import { createOrder, createShopClient, createShopCore, isCancelOrderError, isCreateOrderError, isGetOrderError, type GetOrderError, type Order, type Problem, type ValidationProblem } from "@avaspec/client/shop";

const shop = createShopClient();

export async function typedErrors(orderId: string): Promise<string | undefined> {
  try {
    await shop.getOrder({ orderId });
  } catch (e) {
    // @ts-expect-error: a caught value is unknown until narrowed
    e.statusCode;
    if (isGetOrderError(e)) {
      const all: GetOrderError = e;
      if (e.statusCode === 404) {
        const problem: Problem | undefined = e.body;
        return problem?.title;
      }
      // every other status: default's body, and 404 is not among them
      const other: Problem | undefined = e.body;
      // @ts-expect-error: the 404 was narrowed away
      const notFound: 404 = e.statusCode;
      void [all, other, notFound];
    }
  }
  try {
    await shop.createOrder({ body: { sku: "tea", quantity: 1 } });
  } catch (e) {
    if (isCreateOrderError(e) && e.statusCode === 422) {
      const invalid: ValidationProblem | undefined = e.body;
      const pointers: string[] | undefined = e.body?.errors.map((x) => x.pointer);
      // @ts-expect-error: a 422's body is a ValidationProblem, not an Order
      const order: Order | undefined = e.body;
      void [invalid, pointers, order];
    }
    if (isCancelOrderError(e)) {
      if (e.statusCode === 409) {
        const code: string | undefined = e.body?.error;
        void code;
      } else if (e.statusCode !== 404) {
        // the 4XX range less 404 and 409: a plain message
        const message: string | undefined = e.body?.message;
        // @ts-expect-error: no 5XX is declared
        const server: 500 = e.statusCode;
        void [message, server];
      }
    }
  }
  return undefined;
}

export async function responses(): Promise<string | null> {
  const { data, status, headers }: ApiResponse<Order> = await shop.createOrder.withResponse({ body: { sku: "tea", quantity: 1 } });
  const core = createShopCore();
  const functional = await withResponse(createOrder, core, { body: { sku: "tea", quantity: 2 } });
  const order: Order = functional.data;
  // @ts-expect-error: the params are checked as in the call itself
  await withResponse(createOrder, core, { body: { sku: "tea" } });
  const page = await shop.listOrders.withResponse();
  const orders: Order[] = page.data.orders;
  void [data, status, order, orders];
  return headers.get("location");
}

export function plainApiError(e: ApiError): number {
  return e.statusCode;
}
`;

const dataApi = `import { withResponse } from "@avaspec/client";
import { createDataApiClient, createDataApiCore, getNativeBalance, isGetChainInfoError, type ErrorBody } from "@avaspec/client/data-api";

export async function dataErrors(): Promise<void> {
  try {
    await createDataApiClient().getChainInfo({ chainId: "43114" });
  } catch (e) {
    if (isGetChainInfoError(e)) {
      const body: ErrorBody | undefined = e.body;
      const message: string | string[] | undefined = e.body?.message;
      // @ts-expect-error: the Data API declares no 418
      if (e.statusCode === 418) void body;
      void message;
    }
  }
  // the functional form keeps the core's number policy
  const big = await withResponse(getNativeBalance, createDataApiCore({ numbers: "bigint" }), { chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" });
  const balance: bigint = big.data.nativeTokenBalance.balance;
  const wire = await withResponse(getNativeBalance, createDataApiCore(), { chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" });
  const text: string = wire.data.nativeTokenBalance.balance;
  void [balance, text];
}
`;

describe("typed errors and responses (types)", () => {
  it("the shop fixture: errors narrowed by guard and status, withResponse in both forms", () => {
    expect(typecheckAgainstGenerated({ "shop.ts": shop }, "test/fixtures/shop-31/golden/src")).toBe("");
  }, 120_000);

  it("the README's example of errors and responses compiles against the shop fixture", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### Errors and responses"));
    const example = /```ts\n([\s\S]*?)```/.exec(section)![1]!.replaceAll("@fixtures/shop-31", "@avaspec/client");
    expect(example).toContain("withResponse");
    expect(typecheckAgainstGenerated({ "readme.ts": `${example}\nexport {};\n` }, "test/fixtures/shop-31/golden/src")).toBe("");
  }, 120_000);

  it("the Data API: its error body typed, withResponse keeping the number policy", () => {
    expect(typecheckAgainstGenerated({ "data.ts": dataApi })).toBe("");
  }, 120_000);
});
