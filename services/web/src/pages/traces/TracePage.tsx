/** A trace: its summary, then its observations as a tree with a timeline beside the one chosen. */
import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { ObservationDetail } from "./ObservationDetail";
import { ObservationTree } from "./ObservationTree";
import { POLL_MS } from "./shared";
import { TraceSummary } from "./TraceSummary";
import { buildTree } from "./tree";
import type { TraceDetail } from "./types";

/** Still running: a span or generation that has not ended (events never do). */
const unfinished = (detail: TraceDetail | undefined) => detail?.observations.some((o) => !o.end_time && o.type !== "EVENT") ?? false;

export default function TracePage() {
  const { owner, project, base } = useProject();
  const { traceId = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const trace = useQuery({
    queryKey: ["trace", owner, project, traceId],
    queryFn: () =>
      unwrap(api.GET("/api/v1/{owner}/{project}/traces/{trace_id}", { params: { path: { owner, project, trace_id: traceId } } })),
    refetchInterval: (query) => (unfinished(query.state.data) ? POLL_MS : false),
  });
  const roots = useMemo(() => buildTree(trace.data?.observations ?? []), [trace.data]);
  const selectedId = params.get("observation");
  const select = useCallback(
    (id: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set("observation", id);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  if (trace.isPending) return <Loading what="Loading the trace" />;
  if (trace.isError) return <ErrorView error={trace.error} retry={() => void trace.refetch()} />;
  const detail = trace.data;
  const selected = detail.observations.find((o) => o.id === selectedId);
  return (
    <section aria-labelledby="trace-title" data-trace-id={detail.trace.id}>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to={`${base}/traces`}>Traces</Link> / <span className="mono">{detail.trace.id}</span>
      </nav>
      <h1 id="trace-title">{detail.trace.name || detail.trace.id}</h1>
      <TraceSummary detail={detail} />
      <h2>Observations</h2>
      {detail.observations.length === 0 ? (
        <EmptyState title="No observations in this trace yet">
          Spans, generations and events sent with this trace id appear here as they arrive.
        </EmptyState>
      ) : (
        <div className="trace-body">
          <ObservationTree roots={roots} selected={selected?.id ?? null} onSelect={select} />
          {selected ? (
            <ObservationDetail observation={selected} scores={detail.scores.filter((s) => s.observation_id === selected.id)} />
          ) : (
            <p className="muted obs-detail">Choose an observation to see its input, output, usage and cost.</p>
          )}
        </div>
      )}
    </section>
  );
}
