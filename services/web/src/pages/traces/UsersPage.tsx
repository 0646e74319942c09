/** The users traces name, the most recently seen first, each a link to their traces. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import type { Column } from "../../components/VirtualTable";
import { formatCost, formatNumber, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { PagedTable } from "./PagedTable";
import { NoTracesYet, POLL_MS, useUrlFilters } from "./shared";
import type { UserView } from "./types";

function columns(base: string): Column<UserView>[] {
  return [
    {
      key: "user",
      header: "User",
      width: "2fr",
      cell: (u) => (
        <Link to={`${base}/traces?${new URLSearchParams({ user: u.user_id })}`} data-user-id={u.user_id}>
          {u.user_id}
        </Link>
      ),
    },
    { key: "traces", header: "Traces", width: "80px", align: "right", cell: (u) => u.trace_count.toLocaleString() },
    { key: "first", header: "First seen", width: "170px", cell: (u) => formatTime(u.first_seen) },
    { key: "last", header: "Last seen", width: "170px", cell: (u) => formatTime(u.last_seen) },
    { key: "in", header: "In", width: "80px", align: "right", cell: (u) => formatNumber(u.input_tokens) },
    { key: "out", header: "Out", width: "80px", align: "right", cell: (u) => formatNumber(u.output_tokens) },
    { key: "tokens", header: "Tokens", width: "90px", align: "right", cell: (u) => formatNumber(u.total_tokens) },
    { key: "cost", header: "Cost", width: "90px", align: "right", cell: (u) => formatCost(u.total_cost) },
  ];
}

export default function UsersPage() {
  const { owner, project, base } = useProject();
  const { update, page } = useUrlFilters();
  const users = useQuery({
    queryKey: ["users", owner, project, page],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/users", { params: { path: { owner, project }, query: { page, limit: 50 } } })),
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? POLL_MS : false,
  });
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      <PagedTable
        query={users}
        label="Users"
        columns={columns(base)}
        rowKey={(u) => u.user_id}
        empty={<NoTracesYet title="No users yet: traces name theirs with user_id" />}
        onPage={(p) => update({ page: p })}
      />
    </section>
  );
}
