/** The runs of a pipeline (a DAG's ops, a matrix's trials), polled while any is not final. */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { pollWhileLive } from "../../lib/runStatus";

/** At most this many children are read (the api's page limit). */
export const MAX_CHILDREN = 1000;

export function useChildren(owner: string, project: string, pipeline: string, pipelineStatus: string | undefined) {
  return useQuery({
    queryKey: ["runs", owner, project, "pipeline", pipeline],
    queryFn: () =>
      unwrap(api.GET("/api/v1/{owner}/{project}/runs", { params: { path: { owner, project }, query: { pipeline, limit: MAX_CHILDREN } } })),
    refetchInterval: (q) => pollWhileLive([pipelineStatus, ...(q.state.data?.runs.map((r) => r.status) ?? [])]),
  });
}
