/** A run and its status history, read from the api and polled while the run may change. */
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { runQuery } from "../../lib/metrics";
import { useProject } from "../../lib/params";
import { pollWhileLive } from "../../lib/runStatus";

/** Query keys of a project's runs: invalidate `runKeys.all(...)` to refresh every one. */
export const runKeys = {
  all: (owner: string, project: string) => ["runs", owner, project] as const,
  run: (owner: string, project: string, uuid: string) => runQuery(owner, project, uuid).queryKey,
  part: (owner: string, project: string, uuid: string, part: string) => ["runs", owner, project, uuid, part] as const,
};

/** The route's run uuid (`runs/:uuid`). */
export function useRunUuid(): string {
  return useParams().uuid ?? "";
}

/** The run `uuid` of the route's project; refreshed every 2 s until its status is final. */
export function useRun(uuid: string = useRunUuid()) {
  const { owner, project } = useProject();
  return useQuery({
    ...runQuery(owner, project, uuid),
    refetchInterval: (query) => pollWhileLive(query.state.data ? [query.state.data.status] : []),
    enabled: Boolean(uuid),
  });
}

/** The run's status changes, oldest first; refreshed with the run. */
export function useStatuses(uuid: string, live: boolean) {
  const { owner, project } = useProject();
  return useQuery({
    queryKey: runKeys.part(owner, project, uuid, "statuses"),
    queryFn: () =>
      unwrap(api.GET("/api/v1/{owner}/{project}/runs/{run_uuid}/statuses", { params: { path: { owner, project, run_uuid: uuid } } })),
    refetchInterval: live ? 2000 : false,
  });
}
