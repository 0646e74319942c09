/** Sessions, newest first, with their traces' count, time span, cost and users. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import type { Column } from "../../components/VirtualTable";
import { formatCost, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { PagedTable } from "./PagedTable";
import { NoTracesYet, POLL_MS, useUrlFilters } from "./shared";
import type { SessionView } from "./types";

function columns(base: string): Column<SessionView>[] {
  return [
    {
      key: "id",
      header: "Session",
      width: "2fr",
      cell: (s) => (
        <Link to={`${base}/sessions/${encodeURIComponent(s.id)}`} data-session-id={s.id}>
          {s.id}
        </Link>
      ),
    },
    { key: "traces", header: "Traces", width: "80px", align: "right", cell: (s) => s.trace_count.toLocaleString() },
    { key: "first", header: "First trace", width: "170px", cell: (s) => formatTime(s.first_trace_at) },
    { key: "last", header: "Last trace", width: "170px", cell: (s) => formatTime(s.last_trace_at) },
    { key: "cost", header: "Cost", width: "90px", align: "right", cell: (s) => formatCost(s.total_cost) },
    { key: "users", header: "User", cell: (s) => s.user_ids?.join(", ") || <span className="muted">–</span> },
  ];
}

export default function SessionsPage() {
  const { owner, project, base } = useProject();
  const { update, page } = useUrlFilters();
  const sessions = useQuery({
    queryKey: ["sessions", owner, project, page],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/sessions", { params: { path: { owner, project }, query: { page, limit: 50 } } })),
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? POLL_MS : false,
  });
  return (
    <section aria-labelledby="sessions-title">
      <h1 id="sessions-title">Sessions</h1>
      <PagedTable
        query={sessions}
        label="Sessions"
        columns={columns(base)}
        rowKey={(s) => s.id}
        empty={<NoTracesYet title="No sessions yet: a session starts with the first trace that names it (session_id)" />}
        onPage={(p) => update({ page: p })}
      />
    </section>
  );
}
