/**
 * MSW's real `setupServer` around generated mocks for one describe block:
 * listening before its tests (unhandled requests are errors), every mock's
 * overrides reset after each test, closed after the block.
 */
import type { RequestHandler, WebSocketHandler } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

export function useMsw(...mocks: { handlers: readonly (RequestHandler | WebSocketHandler)[]; reset(): void }[]): void {
  const server = setupServer(...mocks.flatMap((m) => m.handlers));
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => mocks.forEach((m) => m.reset()));
  afterAll(() => server.close());
}
