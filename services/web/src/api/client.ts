/** The typed API client: paths and bodies come from the api's committed OpenAPI document. */
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./schema";
import { credentialHeaders } from "../lib/token";

/** One problem of a request the api refused: where (`body.url`) and what. */
export interface ErrorDetail {
  location: string;
  message: string;
}

/** An API failure, with the api's own `{code, message, details}` when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The tab's token, or the web session's cookie (same origin) with its CSRF header on writes. */
const auth: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(credentialHeaders(request.method))) request.headers.set(name, value);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: "same-origin" });
api.use(auth);

interface Reply<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The reply's data, or an {@link ApiError} that says what went wrong in words. */
export async function unwrap<T>(reply: Promise<Reply<T>>): Promise<T> {
  let result: Reply<T>;
  try {
    result = await reply;
  } catch (cause) {
    throw new ApiError(0, "network", `The api cannot be reached (${String(cause)}). Is the platform running?`);
  }
  const { data, error, response } = result;
  if (error !== undefined || !response.ok) {
    throw errorOf(response.status, error);
  }
  return data as T;
}

export function errorOf(status: number, body: unknown): ApiError {
  if (body && typeof body === "object") {
    const doc = body as { code?: unknown; message?: unknown; detail?: unknown; details?: unknown };
    if (typeof doc.message === "string") {
      return new ApiError(status, String(doc.code ?? status), doc.message, detailsOf(doc.details));
    }
    if (typeof doc.detail === "string") return new ApiError(status, String(status), doc.detail);
  }
  if (typeof body === "string" && body) return new ApiError(status, String(status), body);
  return new ApiError(status, String(status), `The api answered ${status}.`);
}

function detailsOf(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (!item || typeof item !== "object") return [];
    const { location, message } = item as { location?: unknown; message?: unknown };
    return typeof message === "string" ? [{ location: typeof location === "string" ? location : "", message }] : [];
  });
}
