/** The trace itself: who and when, its totals, tags, scores, input, output and metadata. */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { JsonView } from "../../components/JsonView";
import { formatCost, formatDuration, formatNumber, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { IoView } from "./Conversation";
import { ScoreChips } from "./shared";
import type { TraceDetail } from "./types";

function Card({ label, field, children }: { label: string; field: string; children: ReactNode }) {
  return (
    <div className="card" data-field={field}>
      <div className="label">{label}</div>
      <div>{children}</div>
    </div>
  );
}

export function TraceSummary({ detail }: { detail: TraceDetail }) {
  const { base } = useProject();
  const t = detail.trace;
  const tags = t.tags ?? [];
  const metadata = t.metadata ?? {};
  const traceScores = detail.scores.filter((s) => !s.observation_id);
  return (
    <div className="trace-summary">
      <div className="cards">
        <Card label="Started" field="timestamp">{formatTime(t.timestamp)}</Card>
        <Card label="Latency" field="latency">{formatDuration(t.latency)}</Card>
        <Card label="Tokens" field="tokens">{formatNumber(t.total_tokens)}
          <span className="muted">
            {" "}
            ({formatNumber(t.input_tokens)} in · {formatNumber(t.output_tokens)} out)
          </span></Card>
        <Card label="Cost" field="cost">{formatCost(t.total_cost)}</Card>
        <Card label="User" field="user">
          {t.user_id ? <Link to={`${base}/traces?${new URLSearchParams({ user: t.user_id })}`}>{t.user_id}</Link> : <span className="muted">–</span>}
        </Card>
        <Card label="Session" field="session">
          {t.session_id ? <Link to={`${base}/sessions/${encodeURIComponent(t.session_id)}`}>{t.session_id}</Link> : <span className="muted">–</span>}
        </Card>
        <Card label="Environment" field="environment">
          {t.environment}
          {t.release && <span className="muted"> · {t.release}</span>}
          {t.version && <span className="muted"> · v{t.version}</span>}
        </Card>
      </div>
      <div className="toolbar">
        <span className="muted">Tags</span>
        {tags.length ? (
          <ul className="chips" aria-label="Tags">
            {tags.map((tag) => (
              <li key={tag} className="chip" data-tag={tag}>
                {tag}
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">none</span>
        )}
        <span className="muted">Scores</span>
        <ScoreChips scores={traceScores} />
      </div>
      <div className="io-pair">
        <IoView label="Trace input" value={t.input} />
        <IoView label="Trace output" value={t.output} />
      </div>
      {Object.keys(metadata).length > 0 && (
        <details className="io">
          <summary>Metadata</summary>
          <JsonView value={metadata} />
        </details>
      )}
    </div>
  );
}
