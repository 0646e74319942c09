/** The actions a run's status allows, each confirmed first; the api's refusal is shown. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { api, unwrap } from "../../api/client";
import { ConfirmButton } from "../../components/Confirm";
import { useProject } from "../../lib/params";
import { allowedVerbs, type RunInfo, type Verb } from "./statuses";
import { runKeys } from "./useRun";

const QUESTIONS: Record<Verb, string> = {
  stop: "Stop this run? What it is doing now is lost.",
  restart: "Restart this run as a new run with the same spec?",
  resume: "Resume this run as a new attempt of the same run?",
  approve: "Approve this run so it can be scheduled?",
  skip: "Skip this run? It will not run.",
  delete: "Delete this run, its logs and its records? This cannot be undone.",
};
const LABELS: Record<Verb, string> = { stop: "Stop", restart: "Restart", resume: "Resume", approve: "Approve", skip: "Skip", delete: "Delete" };

export function RunActions({ run }: { run: RunInfo }) {
  const { owner, project, base } = useProject();
  const client = useQueryClient();
  const navigate = useNavigate();
  const act = useMutation({
    mutationFn: (verb: Verb) => {
      const path = { owner, project, run_uuid: run.uuid };
      return verb === "delete"
        ? unwrap(api.DELETE("/api/v1/{owner}/{project}/runs/{run_uuid}", { params: { path } }))
        : unwrap(api.POST("/api/v1/{owner}/{project}/runs/{run_uuid}/{verb}", { params: { path: { ...path, verb } } }));
    },
    onSuccess: async (accepted, verb) => {
      await client.invalidateQueries({ queryKey: runKeys.all(owner, project) });
      if (verb === "delete") navigate(`${base}/runs`);
      else if (accepted.new_uuid) navigate(`${base}/runs/${accepted.new_uuid}`);
    },
  });
  return (
    <div className="actions" role="group" aria-label="Run actions">
      {allowedVerbs(run).map((verb) => (
        <ConfirmButton
          key={verb}
          label={LABELS[verb]}
          question={QUESTIONS[verb]}
          danger={verb === "delete" || verb === "stop"}
          onConfirm={() => act.mutateAsync(verb)}
        />
      ))}
    </div>
  );
}
