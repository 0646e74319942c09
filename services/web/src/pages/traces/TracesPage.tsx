/** Traces, newest first: filtered from the URL, paged, polling for new ones on the first page. */
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import type { Column } from "../../components/VirtualTable";
import { formatCost, formatDuration, formatNumber, formatTime } from "../../lib/format";
import { FilteredList } from "./FilteredList";
import { TRACE_FILTERS, traceQuery } from "./filters";
import { NoTracesYet } from "./shared";
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
  return (
    <FilteredList
      name="traces"
      title="Traces"
      filters={TRACE_FILTERS}
      read={({ owner, project, params, page }) => {
        const query = traceQuery(params, page, LIMIT, Date.now());
        return unwrap(api.GET("/api/v1/{owner}/{project}/traces", { params: { path: { owner, project }, query } }));
      }}
      columns={columns}
      rowKey={(t) => t.id}
      noMatch="No trace matches these filters."
      empty={<NoTracesYet title="No traces yet" />}
    />
  );
}
