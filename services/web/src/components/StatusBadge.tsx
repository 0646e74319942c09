/** A run's (or delivery's) status as a coloured, labelled badge. */
const TONES: Record<string, string> = {
  succeeded: "ok",
  done: "ok",
  delivered: "ok",
  started: "ok",
  restarted: "ok",
  pending: "wait",
  dead: "bad",
  running: "live",
  starting: "live",
  scheduled: "wait",
  queued: "wait",
  created: "wait",
  compiled: "wait",
  on_schedule: "wait",
  warning: "warn",
  unschedulable: "warn",
  upstream_failed: "bad",
  failed: "bad",
  stopped: "muted",
  stopping: "muted",
  skipped: "muted",
};

export function StatusBadge({ status }: { status: string | null | undefined }) {
  const value = status ?? "unknown";
  return (
    <span className={`badge tone-${TONES[value] ?? "muted"}`} data-status={value}>
      {value.replace(/_/g, " ")}
    </span>
  );
}
