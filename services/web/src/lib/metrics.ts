/** The queries of run data the chart pages share: a run, and its metric series downsampled
 * by the api to about as many points as a chart is wide (a zoom reads its steps anew). */
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { takeEarly } from "./early";

/** Points per series: enough for a chart's width, few enough to draw 100,000 steps at once. */
export const CHART_POINTS = 1000;

type RunInfo = components["schemas"]["RunInfo"];

export function runQuery(owner: string, project: string, uuid: string) {
  return {
    queryKey: ["runs", owner, project, uuid],
    queryFn: (): Promise<RunInfo> =>
      takeEarly<RunInfo>(`/api/v1/${owner}/${project}/runs/${uuid}`) ??
      unwrap(api.GET("/api/v1/{owner}/{project}/runs/{run_uuid}", { params: { path: { owner, project, run_uuid: uuid } } })),
  };
}

type SeriesList = components["schemas"]["SeriesList"];

export function seriesQuery(owner: string, project: string, uuid: string, range: [number, number] | null) {
  const first = `/api/v1/${owner}/${project}/runs/${uuid}/metrics?points=${CHART_POINTS}`;
  return {
    queryKey: ["metrics", owner, project, uuid, range],
    queryFn: (): Promise<SeriesList> =>
      (range ? undefined : takeEarly<SeriesList>(first)) ??
      unwrap(
        api.GET("/api/v1/{owner}/{project}/runs/{run_uuid}/metrics", {
          params: {
            path: { owner, project, run_uuid: uuid },
            query: { points: CHART_POINTS, first_step: range?.[0], last_step: range?.[1] },
          },
        }),
      ),
  };
}

/** When a run started, in ms: a time axis counts from there. */
export function startOf(run: { started_at?: string | null; created_at: string }): number {
  return Date.parse(run.started_at ?? run.created_at);
}
