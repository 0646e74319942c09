/** What the evaluators page reads and changes, each under one query key. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

export type JobState = components["schemas"]["EvalJob"]["state"];
export const JOB_STATES: JobState[] = ["pending", "running", "succeeded", "failed"];

const keys = {
  rules: (owner: string, project: string) => ["evals", owner, project, "rules"] as const,
  templates: (owner: string, project: string) => ["evals", owner, project, "templates"] as const,
  jobs: (owner: string, project: string, rule: string | null, state: JobState | null) => ["evals", owner, project, "jobs", rule, state] as const,
};

export function useRules(owner: string, project: string) {
  return useQuery({
    queryKey: keys.rules(owner, project),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/evals/rules", { params: { path: { owner, project } } })),
  });
}

export function useTemplates(owner: string, project: string) {
  return useQuery({
    queryKey: keys.templates(owner, project),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/evals/templates", { params: { path: { owner, project } } })),
  });
}

/** The project's annotation queues, to name a queue rule's queue: the queues page's query, cached under its key. */
export function useQueues(owner: string, project: string) {
  return useQuery({
    queryKey: ["annotation-queues", owner, project],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/annotation-queues", { params: { path: { owner, project }, query: { limit: 100 } } })),
  });
}

/** Jobs newest first, refreshed every few seconds while some are not done. */
export function useJobs(owner: string, project: string, rule: string | null, state: JobState | null) {
  return useQuery({
    queryKey: keys.jobs(owner, project, rule, state),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/{owner}/{project}/evals/jobs", {
          params: { path: { owner, project }, query: { rule: rule ?? undefined, state: state ?? undefined, limit: 200 } },
        }),
      ),
    refetchInterval: (query) => (query.state.data?.data.some((j) => j.state === "pending" || j.state === "running") ? 3000 : false),
  });
}

export function useSetActive(owner: string, project: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ rule, active }: { rule: string; active: boolean }) =>
      unwrap(
        api.POST("/api/v1/{owner}/{project}/evals/rules/{rule}/{verb}", {
          params: { path: { owner, project, rule, verb: active ? "activate" : "deactivate" } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.rules(owner, project) }),
  });
}
