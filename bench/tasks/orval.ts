// The three shop tasks with orval's fetch client (generated into .out/orval), as its documentation shows them.
import { createOrder, getOrder, listOrders, type NewOrder, type Order } from "./.out/orval/shop.js";
import { env } from "./orval-env.js";

export async function listAllOrders(baseUrl: string): Promise<Order[]> {
  env.shopBaseUrl = baseUrl;
  const orders: Order[] = [];
  let cursor: string | undefined;
  do {
    const res = await listOrders({ cursor });
    if (res.status !== 200) throw new Error(res.data.title);
    orders.push(...res.data.orders);
    cursor = res.data.nextCursor ?? undefined;
  } while (cursor);
  return orders;
}

export async function orderTitleOr404(baseUrl: string, id: string): Promise<Order | string> {
  env.shopBaseUrl = baseUrl;
  const res = await getOrder(id);
  if (res.status === 200) return res.data;
  if (res.status === 404) return res.data.title;
  throw new Error(res.data.title);
}

export async function createOrderLocation(baseUrl: string, body: NewOrder): Promise<{ location: string | null; order: Order }> {
  env.shopBaseUrl = baseUrl;
  const res = await createOrder(body);
  if (res.status !== 201) throw new Error(res.data.title);
  return { location: res.headers.get("location"), order: res.data };
}
