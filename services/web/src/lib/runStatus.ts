/** Which run statuses are final (the api's done statuses), and how often to poll until then. */
const FINAL = new Set(["succeeded", "failed", "stopped", "skipped", "upstream_failed"]);

export function isFinal(status: string | null | undefined): boolean {
  return status != null && FINAL.has(status);
}

/** TanStack Query's ``refetchInterval``: every 2 s while any of ``statuses`` is not final. */
export function pollWhileLive(statuses: (string | null | undefined)[]): number | false {
  return statuses.some((s) => !isFinal(s)) ? 2_000 : false;
}
