/**
 * An organization's audit trail, newest first: who did what, when, from where. Under a project
 * it shows that project's entries, or the whole organization's on request; filters live in the
 * URL, and "Load more" follows the api's cursor.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { ItemTable } from "../events/ItemTable";
import { type Field, FilterForm } from "../traces/FilterForm";
import { useUrlFilters } from "../traces/shared";

type AuditEntry = components["schemas"]["AuditEntry"];

const LIMIT = 50;

const FILTERS: Field[] = [
  { key: "actor", label: "Actor", placeholder: "user or service account" },
  { key: "type", label: "Type", placeholder: "api.write_audited" },
  { key: "since", label: "Since", type: "datetime-local" },
];

/** What happened: an api write as "METHOD path → status", any other event as its type. */
export function what(entry: AuditEntry): string {
  if (entry.type !== "api.write_audited") return entry.type;
  const { method, path, status } = entry.data as { method?: unknown; path?: unknown; status?: unknown };
  return `${String(method)} ${String(path)} → ${String(status)}`;
}

/** Where it came from: the client's address for an api write, else the publishing service. */
function from(entry: AuditEntry): string {
  const client = entry.data.client;
  return typeof client === "string" && client ? client : entry.source;
}

/** A local date and time from the URL as an instant, or undefined. */
function since(raw: string | null): string | undefined {
  const date = raw ? new Date(raw) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

export default function AuditPage() {
  const { org: orgParam, owner, project } = useParams();
  const org = orgParam ?? owner ?? "";
  const { params, update } = useUrlFilters();
  const whole = !project || params.get("scope") === "org";
  const query = {
    project: whole ? undefined : project,
    actor: params.get("actor") || undefined,
    type: params.get("type") || undefined,
    since: since(params.get("since")),
    limit: LIMIT,
  };
  const audit = useInfiniteQuery({
    queryKey: ["audit", org, query],
    queryFn: ({ pageParam }) => unwrap(api.GET("/api/v1/orgs/{org}/audit", { params: { path: { org }, query: { ...query, cursor: pageParam } } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const filtered = Boolean(query.actor || query.type || query.since);
  const entries = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p className="muted">
        Who did what in the organization {org}, when and from where: each write through the api, and the platform's own events. Organization admins read
        it.
      </p>
      {project && (
        <label className="toolbar">
          <input type="checkbox" checked={whole} onChange={(e) => update({ scope: e.target.checked ? "org" : undefined })} />
          The whole organization {org}, not only {project}
        </label>
      )}
      <FilterForm label="Filter audit log" fields={FILTERS} params={params} onApply={update} />
      {audit.isPending ? (
        <Loading what="Loading the audit log" />
      ) : audit.isError && !audit.isFetchNextPageError ? (
        <ErrorView error={audit.error} retry={() => void audit.refetch()} forbidden="Only organization admins read the audit log" />
      ) : entries.length === 0 ? (
        filtered ? (
          <p className="muted">No entry matches these filters.</p>
        ) : (
          <EmptyState title="Nothing recorded yet" command={`axonal audit ls --org ${org}`}>
            Each write through the api is recorded here once it is answered.
          </EmptyState>
        )
      ) : (
        <>
          <ItemTable
            label="Audit log"
            items={entries}
            columns={[
              { header: "When", cell: (e) => formatTime(e.occurred_at) },
              { header: "Actor", cell: (e) => e.actor },
              { header: "What", className: "mono", cell: (e) => what(e) },
              { header: "Project", cell: (e) => e.project ?? <span className="muted">–</span> },
              { header: "From", className: "muted", cell: (e) => from(e) },
            ]}
            rowKey={(e) => e.event_id}
            rowData={(e) => ({ "data-event-id": e.event_id, "data-type": e.type, "data-actor": e.actor })}
            queryKey={["audit", org]}
          />
          {audit.hasNextPage && (
            <button type="button" disabled={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
              {audit.isFetchingNextPage ? "Loading…" : "Load more"}
            </button>
          )}
          {audit.isFetchNextPageError && <ErrorView error={audit.error} />}
        </>
      )}
    </section>
  );
}
