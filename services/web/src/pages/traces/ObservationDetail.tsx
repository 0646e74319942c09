/** One observation in full: what it is, what went in and out, what it used and cost, its scores. */
import { JsonView } from "../../components/JsonView";
import { durationBetween, formatCost, formatDuration, formatNumber, formatTime } from "../../lib/format";
import { IoView } from "./Conversation";
import { ScoreChips } from "./shared";
import type { ObservationView, ScoreView } from "./types";

/** `key value` pairs of a usage or cost map, or a dash. */
function Amounts({ values, format }: { values: Record<string, number>; format: (n: number) => string }) {
  const entries = Object.entries(values);
  if (entries.length === 0) return <span className="muted">–</span>;
  return (
    <span className="amounts">
      {entries.map(([key, value]) => (
        <span key={key} data-key={key}>
          {key} <strong>{format(value)}</strong>
        </span>
      ))}
    </span>
  );
}

export function ObservationDetail({ observation: o, scores }: { observation: ObservationView; scores: ScoreView[] }) {
  const usage = o.usage_details ?? {};
  const costs = o.cost_details ?? {};
  const parameters = o.model_parameters ?? {};
  const metadata = o.metadata ?? {};
  const latency = o.end_time ? durationBetween(o.start_time, o.end_time) : null;
  const firstToken = o.completion_start_time ? durationBetween(o.start_time, o.completion_start_time) : null;
  return (
    <section className="obs-detail" aria-label={`Observation ${o.name ?? o.id}`} data-observation-id={o.id}>
      <h2>
        <span className={`obs-type type-${o.type.toLowerCase()}`}>{o.type}</span> {o.name || o.id}
      </h2>
      <dl className="pairs">
        <dt>Id</dt>
        <dd>{o.id}</dd>
        <dt>Started</dt>
        <dd>{formatTime(o.start_time)}</dd>
        <dt>Latency</dt>
        <dd data-field="latency">{o.end_time ? formatDuration(latency) : "not ended"}</dd>
        {firstToken != null && (
          <>
            <dt>First token</dt>
            <dd>{formatDuration(firstToken)}</dd>
          </>
        )}
        {o.model && (
          <>
            <dt>Model</dt>
            <dd data-field="model">{o.model}</dd>
          </>
        )}
        {Object.keys(parameters).length > 0 && (
          <>
            <dt>Parameters</dt>
            <dd>
              <JsonView value={parameters} />
            </dd>
          </>
        )}
        <dt>Usage</dt>
        <dd data-field="usage">
          <Amounts values={usage} format={(n) => formatNumber(n)} />
        </dd>
        <dt>Cost</dt>
        <dd data-field="cost">
          {formatCost(o.total_cost)} {Object.keys(costs).length > 1 && <Amounts values={costs} format={formatCost} />}
        </dd>
        <dt>Level</dt>
        <dd>
          <span className={`badge tone-${o.level === "ERROR" ? "bad" : o.level === "WARNING" ? "warn" : "muted"}`} data-level={o.level}>
            {o.level}
          </span>
        </dd>
        {o.status_message && (
          <>
            <dt>Status</dt>
            <dd data-field="status-message">{o.status_message}</dd>
          </>
        )}
        {o.prompt_name && (
          <>
            <dt>Prompt</dt>
            <dd>
              {o.prompt_name} v{o.prompt_version}
            </dd>
          </>
        )}
      </dl>
      <h3>Scores</h3>
      <ScoreChips scores={scores} />
      <IoView label="Input" value={o.input} />
      <IoView label="Output" value={o.output} />
      {Object.keys(metadata).length > 0 && (
        <div className="io">
          <h3>Metadata</h3>
          <JsonView value={metadata} />
        </div>
      )}
    </section>
  );
}
