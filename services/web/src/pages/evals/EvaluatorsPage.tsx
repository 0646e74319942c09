/** Online evaluation rules (what each takes, how often, and what it does: score with a template,
 * or send to an annotation queue) and their jobs: each job's state, its score, its evaluator's
 * run or queue item, or why it failed with the judge's kept answer; and the templates. */
import { useState } from "react";
import { Link } from "react-router";
import type { components } from "../../api/schema";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { JOB_STATES, type JobState, useJobs, useQueues, useRules, useSetActive } from "./queries";
import { Templates } from "./Templates";

type Rule = components["schemas"]["EvalRule"];
type Job = components["schemas"]["EvalJob"];

/** A rule's filter in a few words: `experiments of qa · name answer · tags prod · score feedback < 0 · 20% · after 30 s`. */
export function describe(rule: Rule): string {
  const f = rule.filter;
  const parts = [
    f.datasets?.length ? `experiments of ${f.datasets.join(" | ")}` : "",
    f.names?.length ? `name ${f.names.join(" | ")}` : f.datasets?.length ? "" : `every ${rule.target}`,
    f.tags?.length ? `tags ${f.tags.join(", ")}` : "",
    f.environments?.length ? `env ${f.environments.join(" | ")}` : "",
    f.types?.length ? `type ${f.types.join(" | ")}` : "",
    f.metadata && Object.keys(f.metadata).length ? `metadata ${JSON.stringify(f.metadata)}` : "",
    ...(f.scores ?? []).map((s) => `score ${s.name} ${s.operator} ${s.value}`),
    rule.sampling < 1 ? `${Math.round(rule.sampling * 100)}%` : "",
    rule.delay_seconds ? `after ${rule.delay_seconds} s` : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

/** What a rule does with a target: `score: helpful · openai gpt-4o-mini` (`· code`), or `queue: review` linked to the queue. */
function Action({ rule, queues }: { rule: Rule; queues: Map<string, string> }) {
  const { base } = useProject();
  if (rule.queue_id) {
    return (
      <>
        queue: <Link to={`${base}/annotation-queues/${rule.queue_id}`}>{queues.get(rule.queue_id) ?? rule.queue_id.slice(0, 8)}</Link>
      </>
    );
  }
  return (
    <>
      score: {rule.template}{" "}
      {rule.connection ? (
        <span className="muted">
          · <code>{rule.connection}</code> {rule.model}
        </span>
      ) : (
        <span className="muted">· code</span>
      )}
    </>
  );
}

function Rules({ rules, selected, select }: { rules: Rule[]; selected: string | null; select: (id: string | null) => void }) {
  const { owner, project } = useProject();
  const setActive = useSetActive(owner, project);
  const queues = useQueues(owner, project);
  const queueNames = new Map(queues.data?.data.map((q) => [q.id, q.name]));
  return (
    <table className="grid" aria-label="Evaluation rules">
      <thead>
        <tr>
          <th>Rule</th>
          <th>Action</th>
          <th>Filter</th>
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
            <td>
              <Action rule={rule} queues={queueNames} />
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

/** Where a job went: a code evaluator's run, or the queue a queue rule sent its target to. */
function Via({ job, rule }: { job: Job; rule: Rule | undefined }) {
  const { base } = useProject();
  if (job.run_uuid) {
    return (
      <Link to={`${base}/runs/${job.run_uuid}`} title={job.run_uuid}>
        run {job.run_uuid.slice(0, 8)}
      </Link>
    );
  }
  if (job.queue_item_id && rule?.queue_id) {
    return (
      <Link to={`${base}/annotation-queues/${rule.queue_id}`} title={`item ${job.queue_item_id}`}>
        queued
      </Link>
    );
  }
  return null;
}

function JobRow({ job, rule }: { job: Job; rule: Rule | undefined }) {
  const { base } = useProject();
  const tone = job.state === "failed" ? "tone-bad" : job.state === "succeeded" ? "tone-ok" : "muted";
  return (
    <tr data-job={job.id} data-state={job.state}>
      <td className={tone}>{job.state}</td>
      <td>{rule?.name ?? job.rule_id.slice(0, 8)}</td>
      <td>
        <Link to={`${base}/traces/${job.trace_id}`}>{job.trace_id.slice(0, 12)}</Link>
        {job.observation_id && <span className="muted"> / {job.observation_id.slice(0, 8)}</span>}
        {job.dataset_item_id && (
          <div className="muted">
            dataset item {job.dataset_item_id.slice(0, 8)}
            {job.dataset_run_id && ` · run ${job.dataset_run_id.slice(0, 8)}`}
          </div>
        )}
      </td>
      <td>{job.score_value ?? "–"}</td>
      <td>
        <Via job={job} rule={rule} />
      </td>
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
  const byId = new Map(rules.map((r) => [r.id, r]));
  return (
    <section className="panel" aria-label="Evaluation jobs">
      <h2>Jobs{rule ? ` of ${byId.get(rule)?.name ?? rule}` : ""}</h2>
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
              <th>Via</th>
              <th>Reason</th>
              <th>Attempts</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.data.map((job) => (
              <JobRow key={job.id} job={job} rule={byId.get(job.rule_id)} />
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
      <Templates />
    </section>
  );
}
