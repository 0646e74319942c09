/** fakeApi: a test double of the api. It answers the typed client's requests from the
 * handlers a test gives it (by path pattern) instead of the network, and records each URL. */
import type { Middleware } from "openapi-fetch";
import { api } from "../api/client";

/** A handler answers a request with a body (sent as 200 JSON) or a whole Response. */
export type Handler = (url: URL) => object | Response;

export interface FakeApi {
  calls: URL[];
  restore: () => void;
}

export function fakeApi(routes: Record<string, Handler>): FakeApi {
  const calls: URL[] = [];
  const middleware: Middleware = {
    onRequest({ request }) {
      const url = new URL(request.url);
      calls.push(url);
      for (const [pattern, handler] of Object.entries(routes)) {
        if (new RegExp(`^${pattern}$`).test(url.pathname)) {
          const body = handler(url);
          return body instanceof Response ? body : Response.json(body);
        }
      }
      return Response.json({ code: "not_found", message: `fakeApi has no ${url.pathname}` }, { status: 404 });
    },
  };
  api.use(middleware);
  return { calls, restore: () => api.eject(middleware) };
}
