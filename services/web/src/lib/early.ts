/** The read index.html starts before the app's code has loaded (a deep link's main data),
 * handed over once to the page that would have made the same request. */
import { errorOf } from "../api/client";

interface Early {
  url: string;
  reply: Promise<Response>;
}

declare global {
  interface Window {
    axonalEarly?: Early;
  }
}

/** The early reply's body for `url` (path and query), or undefined when none was started. */
export function takeEarly<T>(url: string): Promise<T> | undefined {
  const early = window.axonalEarly;
  if (!early || early.url !== url) return undefined;
  window.axonalEarly = undefined;
  return early.reply.then(async (response) => {
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw errorOf(response.status, body);
    return body as T;
  });
}
