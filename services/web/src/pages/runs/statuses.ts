/** What a run's status means for the page: is it over, and which actions does it allow. */
import type { components } from "../../api/schema";

export type RunInfo = components["schemas"]["RunInfo"];
export type RunStatus = components["schemas"]["RunStatus"];
export type Verb = "stop" | "restart" | "resume" | "approve" | "skip" | "delete";

/** The scheduler's DONE_STATUSES: nothing changes after these but a user's action. */
export const FINAL_STATUSES: ReadonlySet<RunStatus> = new Set<RunStatus>(["succeeded", "failed", "stopped", "skipped", "upstream_failed"]);
const NOT_STARTED: ReadonlySet<RunStatus> = new Set<RunStatus>(["created", "on_schedule", "resuming", "compiled", "queued"]);

export const isFinal = (status: RunStatus): boolean => FINAL_STATUSES.has(status);

/** Poll every 2 s while any of these runs may still change; stop once all are over. */
export const POLL_MS = 2000;
export const pollWhileLive = (statuses: RunStatus[]): number | false => (statuses.some((s) => !isFinal(s)) ? POLL_MS : false);

/** The actions the scheduler carries out for a run in this state (others it ignores). */
export function allowedVerbs(run: Pick<RunInfo, "status" | "is_approved" | "compiled" | "managed">): Verb[] {
  const verbs: Verb[] = [];
  const final = isFinal(run.status);
  if (!final && run.status !== "stopping") verbs.push("stop");
  if (!run.is_approved) verbs.push("approve");
  if (NOT_STARTED.has(run.status)) verbs.push("skip");
  if (final && run.status !== "succeeded" && run.managed !== false) verbs.push("resume");
  if (final && run.managed !== false) verbs.push("restart");
  verbs.push("delete");
  return verbs;
}

/** The run's pipeline kinds: a DAG shows its graph, a matrix its trials. */
export const isDag = (run: Pick<RunInfo, "kind">): boolean => run.kind === "dag";
export const isMatrix = (run: Pick<RunInfo, "kind">): boolean => run.kind === "matrix";
