/** Which run statuses are final (the api's done statuses), and how often to poll until then. */
const FINAL = new Set(["succeeded", "failed", "stopped", "skipped", "upstream_failed"]);

export function isFinal(status: string | null | undefined): boolean {
  return status != null && FINAL.has(status);
}

/** TanStack Query's ``refetchInterval``: every ``every`` ms (2 s) while any of ``statuses``
 * is not final, off once all are. */
export function pollWhileLive(statuses: (string | null | undefined)[], every = 2_000): number | false {
  return statuses.some((s) => !isFinal(s)) ? every : false;
}

/** Metric series poll less often: each read scans every point of the series it downsamples. */
export const SERIES_POLL_MS = 5_000;
