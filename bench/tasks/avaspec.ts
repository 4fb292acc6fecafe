// The three shop tasks with avaspec's client (test/fixtures/shop-31/golden/src/shop), as its README shows them.
import { createShopClient, isGetOrderError, type NewOrder, type Order } from "../../test/fixtures/shop-31/golden/src/shop/index.js";

export async function listAllOrders(baseUrl: string): Promise<Order[]> {
  const client = createShopClient({ baseUrl });
  const orders: Order[] = [];
  for await (const order of client.listOrders.iterate()) orders.push(order);
  return orders;
}

export async function orderTitleOr404(baseUrl: string, id: string): Promise<Order | string> {
  const client = createShopClient({ baseUrl });
  try {
    return await client.getOrder({ orderId: id });
  } catch (error) {
    if (isGetOrderError(error) && error.statusCode === 404 && error.body) return error.body.title;
    throw error;
  }
}

export async function createOrderLocation(baseUrl: string, body: NewOrder): Promise<{ location: string | null; order: Order }> {
  const client = createShopClient({ baseUrl });
  const { data, headers } = await client.createOrder.withResponse({ body });
  return { location: headers.get("location"), order: data };
}
