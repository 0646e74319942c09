/** Online evaluation rules (what each judges, how often, with which model) and their jobs:
 * each job's state, its score, or why it failed with the judge's kept answer. */
import { useState } from "react";
import { Link } from "react-router";
import type { components } from "../../api/schema";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { JOB_STATES, type JobState, useJobs, useRules, useSetActive } from "./queries";

type Rule = components["schemas"]["EvalRule"];
type Job = components["schemas"]["EvalJob"];

/** A rule's filter in a few words: `name answer · tags prod · 20% · after 30 s`. */
export function describe(rule: Rule): string {
  const f = rule.filter;
  const parts = [
    f.names?.length ? `name ${f.names.join(" | ")}` : `every ${rule.target}`,
    f.tags?.length ? `tags ${f.tags.join(", ")}` : "",
    f.environments?.length ? `env ${f.environments.join(" | ")}` : "",
    f.types?.length ? `type ${f.types.join(" | ")}` : "",
    f.metadata && Object.keys(f.metadata).length ? `metadata ${JSON.stringify(f.metadata)}` : "",
    rule.sampling < 1 ? `${Math.round(rule.sampling * 100)}%` : "",
    rule.delay_seconds ? `after ${rule.delay_seconds} s` : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

function Rules({ rules, selected, select }: { rules: Rule[]; selected: string | null; select: (id: string | null) => void }) {
  const { owner, project } = useProject();
  const setActive = useSetActive(owner, project);
  return (
    <table className="grid" aria-label="Evaluation rules">
      <thead>
        <tr>
          <th>Rule</th>
          <th>Template</th>
          <th>Judge</th>
          <th>Scores</th>
          <th>Caps</th>
          <th>State</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {rules.map((rule) => (
          <tr key={rule.id} data-rule={rule.name} className={rule.id === selected ? "selected" : undefined}>
            <td>
              <button type="button" className="ghost" aria-pressed={rule.id === selected} onClick={() => select(rule.id === selected ? null : rule.id)}>
                {rule.name}
              </button>
            </td>
            <td>{rule.template}</td>
            <td>
              <code>{rule.connection}</code> {rule.model}
            </td>
            <td>{describe(rule)}</td>
            <td>
              {rule.max_concurrency} at once{rule.max_per_minute ? `, ${rule.max_per_minute}/min` : ""}
            </td>
            <td>{rule.active ? <span className="tone-ok">active</span> : <span className="muted">paused</span>}</td>
            <td>
              <button type="button" disabled={setActive.isPending} onClick={() => setActive.mutate({ rule: rule.id, active: !rule.active })}>
                {rule.active ? "Pause" : "Activate"}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function JobRow({ job, rules }: { job: Job; rules: Map<string, string> }) {
  const { base } = useProject();
  const tone = job.state === "failed" ? "tone-bad" : job.state === "succeeded" ? "tone-ok" : "muted";
  return (
    <tr data-job={job.id} data-state={job.state}>
      <td className={tone}>{job.state}</td>
      <td>{rules.get(job.rule_id) ?? job.rule_id.slice(0, 8)}</td>
      <td>
        <Link to={`${base}/traces/${job.trace_id}`}>{job.trace_id.slice(0, 12)}</Link>
        {job.observation_id && <span className="muted"> / {job.observation_id.slice(0, 8)}</span>}
      </td>
      <td>{job.score_value ?? "–"}</td>
      <td>
        {job.reason ?? ""}
        {job.state === "failed" && job.answer != null && (
          <details>
            <summary>the judge's answer</summary>
            <pre>{JSON.stringify(job.answer, null, 2)}</pre>
          </details>
        )}
      </td>
      <td>{job.attempts}</td>
      <td>{formatTime(job.updated_at)}</td>
    </tr>
  );
}

function Jobs({ rule, rules }: { rule: string | null; rules: Rule[] }) {
  const { owner, project } = useProject();
  const [state, setState] = useState<JobState | null>(null);
  const jobs = useJobs(owner, project, rule, state);
  const names = new Map(rules.map((r) => [r.id, r.name]));
  return (
    <section className="panel" aria-label="Evaluation jobs">
      <h2>Jobs{rule ? ` of ${names.get(rule) ?? rule}` : ""}</h2>
      <label>
        State{" "}
        <select aria-label="Job state" value={state ?? ""} onChange={(e) => setState((e.target.value || null) as JobState | null)}>
          <option value="">any</option>
          {JOB_STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {jobs.isPending ? (
        <Loading what="Loading jobs" />
      ) : jobs.isError ? (
        <ErrorView error={jobs.error} retry={() => void jobs.refetch()} />
      ) : jobs.data.data.length === 0 ? (
        <p className="muted">No jobs{state ? ` ${state}` : ""} yet: a rule makes one for each new trace it matches.</p>
      ) : (
        <table className="grid" aria-label="Jobs">
          <thead>
            <tr>
              <th>State</th>
              <th>Rule</th>
              <th>Target</th>
              <th>Score</th>
              <th>Reason</th>
              <th>Attempts</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.data.map((job) => (
              <JobRow key={job.id} job={job} rules={names} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default function EvaluatorsPage() {
  const { owner, project } = useProject();
  const rules = useRules(owner, project);
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <section aria-labelledby="evaluators-title">
      <h1 id="evaluators-title">Evaluators</h1>
      {rules.isPending ? (
        <Loading what="Loading evaluation rules" />
      ) : rules.isError ? (
        <ErrorView error={rules.error} retry={() => void rules.refetch()} />
      ) : rules.data.data.length === 0 ? (
        <EmptyState
          title="No evaluation rules yet"
          command={`axonal evals rules create helpful-answers --template helpful --connection openai --model gpt-4o-mini -p ${owner}/${project}`}
        />
      ) : (
        <>
          <Rules rules={rules.data.data} selected={selected} select={setSelected} />
          <Jobs rule={selected} rules={rules.data.data} />
        </>
      )}
    </section>
  );
}
