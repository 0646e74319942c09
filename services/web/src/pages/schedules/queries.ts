/** A project's schedules, polled while any fires, and what can be done to one. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { pollWhileLive } from "../../lib/runStatus";
import { runKeys } from "../runs/useRun";

export type ScheduleVerb = components["schemas"]["ScheduleVerb"];
export type BackfillResult = components["schemas"]["BackfillResult"];

export const scheduleKeys = {
  all: (owner: string, project: string) => ["schedules", owner, project] as const,
};

/** Every schedule of the project; refreshed every 2 s while any of their runs is not final. */
export function useSchedules(owner: string, project: string) {
  return useQuery({
    queryKey: scheduleKeys.all(owner, project),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/schedules", { params: { path: { owner, project } } })),
    refetchInterval: (q) => pollWhileLive(q.state.data?.schedules.map((s) => s.status) ?? []),
  });
}

/** Pause, resume, remove (stop its run) and backfill one schedule; each refreshes the schedules and runs. */
export function useScheduleActions(owner: string, project: string, runUuid: string) {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: scheduleKeys.all(owner, project) }),
      client.invalidateQueries({ queryKey: runKeys.all(owner, project) }),
    ]);
  const path = { owner, project, run_uuid: runUuid };
  const toggle = useMutation({
    mutationFn: (verb: ScheduleVerb) => unwrap(api.POST("/api/v1/{owner}/{project}/schedules/{run_uuid}/{verb}", { params: { path: { ...path, verb } } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/{owner}/{project}/runs/{run_uuid}/{verb}", { params: { path: { ...path, verb: "stop" } } })),
    onSuccess: refresh,
  });
  const backfill = useMutation({
    mutationFn: (window: { start: string; end: string }) =>
      unwrap(api.POST("/api/v1/{owner}/{project}/schedules/{run_uuid}/backfill", { params: { path }, body: window })),
    onSuccess: refresh,
  });
  return { toggle, remove, backfill };
}
