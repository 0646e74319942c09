/** The tabs of a run, each its own route under `runs/:uuid`; some only for some kinds. */
import { isDag, isMatrix, type RunInfo } from "./statuses";

export interface RunTab {
  /** The route path under `runs/:uuid` ("" is the overview, the index route). */
  path: string;
  label: string;
}

export function runTabs(run: Pick<RunInfo, "kind">): RunTab[] {
  return [
    { path: "", label: "Overview" },
    { path: "logs", label: "Logs" },
    { path: "metrics", label: "Metrics" },
    ...(isDag(run) ? [{ path: "graph", label: "Graph" }] : []),
    ...(isMatrix(run) ? [{ path: "trials", label: "Trials" }] : []),
    { path: "artifacts", label: "Artifacts" },
    { path: "lineage", label: "Lineage" },
  ];
}
