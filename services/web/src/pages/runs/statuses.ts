/** What a run's status means for the page: is it over, and which actions does it allow. */
import type { components } from "../../api/schema";
import { isFinal } from "../../lib/runStatus";

export type RunInfo = components["schemas"]["RunInfo"];
export type RunStatus = components["schemas"]["RunStatus"];
export type Verb = "stop" | "restart" | "resume" | "approve" | "skip" | "delete";

const NOT_STARTED: ReadonlySet<RunStatus> = new Set<RunStatus>(["created", "on_schedule", "resuming", "compiled", "queued"]);

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
