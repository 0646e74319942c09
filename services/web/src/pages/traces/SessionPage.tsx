/** A session as a conversation: each trace's input as the user's turn and output as the reply. */
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { JsonView } from "../../components/JsonView";
import { ErrorView, Loading } from "../../components/States";
import { formatCost, formatDuration, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { plainText } from "./conversation";
import { NoTracesYet, POLL_MS } from "./shared";
import type { TraceView } from "./types";

/** One side of a turn: its plain text when it has some, else its JSON. */
function Said({ role, value }: { role: "user" | "assistant"; value: unknown }) {
  if (value == null) return null;
  const text = plainText(value);
  return (
    <div className={`msg msg-${role}`} data-role={role}>
      <div className="msg-role">{role}</div>
      {text != null ? <pre className="text">{text}</pre> : <JsonView value={value} />}
    </div>
  );
}

function Turn({ trace, base }: { trace: TraceView; base: string }) {
  return (
    <li className="turn" data-trace-id={trace.id}>
      <div className="turn-head muted">
        <Link to={`${base}/traces/${encodeURIComponent(trace.id)}`}>{trace.name || trace.id}</Link> · {formatTime(trace.timestamp)} ·{" "}
        {formatDuration(trace.latency)} · {formatCost(trace.total_cost)}
      </div>
      <Said role="user" value={trace.input} />
      <Said role="assistant" value={trace.output} />
    </li>
  );
}

export default function SessionPage() {
  const { owner, project, base } = useProject();
  const { sessionId = "" } = useParams();
  const session = useQuery({
    queryKey: ["session", owner, project, sessionId],
    queryFn: () =>
      unwrap(api.GET("/api/v1/{owner}/{project}/sessions/{session_id}", { params: { path: { owner, project, session_id: sessionId } } })),
    refetchInterval: POLL_MS,
  });
  if (session.isPending) return <Loading what="Loading the session" />;
  if (session.isError) return <ErrorView error={session.error} retry={() => void session.refetch()} />;
  const { traces } = session.data;
  return (
    <section aria-labelledby="session-title" data-session-id={sessionId}>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to={`${base}/sessions`}>Sessions</Link> / <span className="mono">{sessionId}</span>
      </nav>
      <h1 id="session-title">Session {sessionId}</h1>
      <p className="muted">
        {traces.length} {traces.length === 1 ? "trace" : "traces"} ·{" "}
        <Link to={`${base}/traces?${new URLSearchParams({ session: sessionId })}`}>as a trace list</Link>
      </p>
      {traces.length === 0 ? (
        <NoTracesYet title="No traces in this session" />
      ) : (
        <ol className="conversation session" aria-label="Conversation">
          {traces.map((t) => (
            <Turn key={t.id} trace={t} base={base} />
          ))}
        </ol>
      )}
    </section>
  );
}
