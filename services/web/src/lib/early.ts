/** The reads index.html starts before the app's code has loaded (a deep link's main data),
 * each handed over once to the page that would have made the same request. */
import { errorOf } from "../api/client";

declare global {
  interface Window {
    /** Replies by URL (path and query), started by index.html's early script. */
    axonalEarly?: Record<string, Promise<Response> | undefined>;
  }
}

/** The early reply's body for `url` (path and query), or undefined when none was started. */
export function takeEarly<T>(url: string): Promise<T> | undefined {
  const reply = window.axonalEarly?.[url];
  if (!reply) return undefined;
  delete window.axonalEarly?.[url];
  return reply.then(async (response) => {
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw errorOf(response.status, body);
    return body as T;
  });
}
