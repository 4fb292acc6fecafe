// The three shop tasks with @hey-api/openapi-ts's SDK and fetch client (generated into .out/hey-api), as its documentation shows them.
import { createClient, createConfig } from "./.out/hey-api/client/index.js";
import { createOrder, getOrder, listOrders, type NewOrder, type Order } from "./.out/hey-api/index.js";

export async function listAllOrders(baseUrl: string): Promise<Order[]> {
  const client = createClient(createConfig({ baseUrl }));
  const orders: Order[] = [];
  let cursor: string | undefined;
  do {
    const { data } = await listOrders({ client, query: { cursor }, throwOnError: true });
    orders.push(...data.orders);
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return orders;
}

export async function orderTitleOr404(baseUrl: string, id: string): Promise<Order | string> {
  const client = createClient(createConfig({ baseUrl }));
  const { data, error, response } = await getOrder({ client, path: { orderId: id } });
  if (data) return data;
  if (response?.status === 404) return error.title;
  throw error;
}

export async function createOrderLocation(baseUrl: string, body: NewOrder): Promise<{ location: string | null; order: Order }> {
  const client = createClient(createConfig({ baseUrl }));
  const { data, response } = await createOrder({ client, body, throwOnError: true });
  return { location: response.headers.get("location"), order: data };
}
