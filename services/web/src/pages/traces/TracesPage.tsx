/** Traces, newest first: filtered from the URL, paged, polling for new ones on the first page. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import type { Column } from "../../components/VirtualTable";
import { formatCost, formatDuration, formatNumber, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { FilterForm } from "./FilterForm";
import { TRACE_FILTERS, traceQuery } from "./filters";
import { PagedTable } from "./PagedTable";
import { NoTracesYet, POLL_MS, useUrlFilters } from "./shared";
import type { TraceView } from "./types";

const LIMIT = 50;

function columns(base: string): Column<TraceView>[] {
  const filterLink = (key: string, value: string) => (
    <Link to={`${base}/traces?${new URLSearchParams({ [key]: value })}`} title={`Only ${key} ${value}`}>
      {value}
    </Link>
  );
  return [
    { key: "time", header: "Time", width: "170px", cell: (t) => formatTime(t.timestamp) },
    {
      key: "name",
      header: "Name",
      width: "2fr",
      cell: (t) => (
        <Link to={`${base}/traces/${encodeURIComponent(t.id)}`} data-trace-id={t.id}>
          {t.name || t.id}
        </Link>
      ),
    },
    { key: "user", header: "User", cell: (t) => (t.user_id ? filterLink("user", t.user_id) : <span className="muted">–</span>) },
    { key: "session", header: "Session", cell: (t) => (t.session_id ? <Link to={`${base}/sessions/${encodeURIComponent(t.session_id)}`}>{t.session_id}</Link> : <span className="muted">–</span>) },
    { key: "tags", header: "Tags", cell: (t) => t.tags?.join(", ") || <span className="muted">–</span> },
    { key: "env", header: "Env", width: "90px", cell: (t) => t.environment },
    { key: "latency", header: "Latency", width: "80px", align: "right", cell: (t) => formatDuration(t.latency) },
    { key: "in", header: "In", width: "70px", align: "right", cell: (t) => formatNumber(t.input_tokens) },
    { key: "out", header: "Out", width: "70px", align: "right", cell: (t) => formatNumber(t.output_tokens) },
    { key: "tokens", header: "Tokens", width: "80px", align: "right", cell: (t) => formatNumber(t.total_tokens) },
    { key: "cost", header: "Cost", width: "90px", align: "right", cell: (t) => formatCost(t.total_cost) },
  ];
}

export default function TracesPage() {
  const { owner, project, base } = useProject();
  const { params, update, page } = useUrlFilters();
  const traces = useQuery({
    queryKey: ["traces", owner, project, params.toString()],
    queryFn: () => {
      const query = traceQuery(params, page, LIMIT, Date.now());
      return unwrap(api.GET("/api/v1/{owner}/{project}/traces", { params: { path: { owner, project }, query } }));
    },
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? POLL_MS : false,
  });
  const filtered = [...params.keys()].some((key) => key !== "page");
  return (
    <section aria-labelledby="traces-title">
      <h1 id="traces-title">Traces</h1>
      <FilterForm label="Filter traces" fields={TRACE_FILTERS} params={params} onApply={update} />
      <PagedTable
        query={traces}
        label="Traces"
        columns={columns(base)}
        rowKey={(t) => t.id}
        empty={filtered ? <p className="muted">No trace matches these filters.</p> : <NoTracesYet title="No traces yet" />}
        onPage={(p) => update({ page: p })}
      />
    </section>
  );
}
