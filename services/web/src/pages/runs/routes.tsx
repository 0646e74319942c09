/** The runs area: the runs of a project, and a run with one route per tab. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";
import { prefetchMetrics, prefetchRun } from "./prefetch";

export const runsRoutes: RouteObject[] = [
  { path: "runs", lazy: page(() => import("./RunsPage")) },
  {
    path: "runs/:uuid",
    loader: prefetchRun,
    lazy: page(() => import("./RunPage")),
    children: [
      { index: true, lazy: page(() => import("./OverviewTab")) },
      { path: "logs", lazy: page(() => import("./LogsTab")) },
      { path: "artifacts", lazy: page(() => import("./ArtifactsTab")) },
      { path: "lineage", lazy: page(() => import("./LineageTab")) },
      { path: "metrics", loader: prefetchMetrics, lazy: page(() => import("./MetricsTab")) },
      { path: "graph", lazy: page(() => import("./DagTab")) },
      { path: "trials", lazy: page(() => import("./TrialsTab")) },
    ],
  },
];
