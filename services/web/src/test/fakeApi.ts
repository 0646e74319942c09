/**
 * A test double of the api behind `fetch`: routes answer with bodies the test gives (typed with
 * the generated schema), or with a `Response` of their own (a stream, a CSV file), and every
 * request is recorded. The typed client keeps the `fetch` it
 * found when it was created, so install it before the client loads:
 * `vi.hoisted(async () => (await import("../test/fakeApi")).installFakeApi())`.
 */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** Whether the browser would send its cookies ("same-origin": the web session's). */
  credentials: RequestCredentials;
  body: unknown;
}

/** A refusal: the handler returns `fail(422, {code, message, details})` instead of a body. */
export class Failure {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export const fail = (status: number, body: unknown) => new Failure(status, body);

type Handler = (request: FakeRequest, match: RegExpMatchArray) => unknown;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export class FakeApi {
  readonly requests: FakeRequest[] = [];
  private routes: Route[] = [];

  /** Answer `method path` (a string, `:name` matches one segment) with the handler's body. */
  on(method: string, path: string, handler: Handler): this {
    const literal = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = new RegExp(`^${literal.replace(/:[a-z_]+/gi, "([^/]+)")}$`);
    this.routes.unshift({ method, pattern, handler });
    return this;
  }

  reset(): void {
    this.routes = [];
    this.requests.length = 0;
  }

  /** The requests sent to `method path`. */
  sent(method: string, path: string): FakeRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
    const url = new URL(request.url);
    const text = await request.text();
    const body = text ? JSON.parse(text) : undefined;
    const sent: FakeRequest = { method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, credentials: request.credentials, body };
    this.requests.push(sent);
    for (const route of this.routes) {
      const match = route.method === sent.method ? sent.path.match(route.pattern) : null;
      if (!match) continue;
      const reply = await route.handler(sent, match);
      if (reply instanceof Response) return reply;
      const { status, body } = reply instanceof Failure ? reply : { status: 200, body: reply };
      return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    }
    return new Response(JSON.stringify({ code: "not_found", message: `the fake api has no ${sent.method} ${sent.path}` }), {
      status: 404,
      headers: { "Content-Type": "application/json" },
    });
  };
}

export function installFakeApi(): FakeApi {
  const fake = new FakeApi();
  globalThis.fetch = fake.fetch;
  return fake;
}
