// The three shop tasks with openapi-fetch over openapi-typescript's types (generated into .out/openapi-fetch), as its documentation shows them.
import createClient from "openapi-fetch";
import type { components, paths } from "./.out/openapi-fetch/schema.js";

type Order = components["schemas"]["Order"];
type NewOrder = components["schemas"]["NewOrder"];

export async function listAllOrders(baseUrl: string): Promise<Order[]> {
  const client = createClient<paths>({ baseUrl });
  const orders: Order[] = [];
  let cursor: string | undefined;
  do {
    const { data, error } = await client.GET("/orders", { params: { query: { cursor } } });
    if (error) throw new Error(error.title);
    orders.push(...data.orders);
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return orders;
}

export async function orderTitleOr404(baseUrl: string, id: string): Promise<Order | string> {
  const client = createClient<paths>({ baseUrl });
  const { data, error, response } = await client.GET("/orders/{orderId}", { params: { path: { orderId: id } } });
  if (data) return data;
  if (response.status === 404) return error.title;
  throw new Error(error.title);
}

export async function createOrderLocation(baseUrl: string, body: NewOrder): Promise<{ location: string | null; order: Order }> {
  const client = createClient<paths>({ baseUrl });
  const { data, error, response } = await client.POST("/orders", { body });
  if (error) throw new Error(error.title);
  return { location: response.headers.get("location"), order: data };
}
