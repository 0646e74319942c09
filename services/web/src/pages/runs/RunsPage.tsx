/** The runs of a project: filtered (filters in the URL), paged, live while any run is going. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { hasFilters, PAGE_SIZE, readFilters, type RunFilters, toQuery, writeFilters } from "./filters";
import { RunFiltersForm } from "./RunFiltersForm";
import { RunsTable } from "./RunsTable";
import { pollWhileLive } from "../../lib/runStatus";
import { runKeys } from "./useRun";
import "./runs.css";

function Pager({ filters, total, shown }: { filters: RunFilters; total: number; shown: number }) {
  const first = (filters.page - 1) * PAGE_SIZE;
  const link = (page: number) => `?${writeFilters({ ...filters, page }).toString()}`;
  return (
    <nav className="pager" aria-label="Pages">
      <span aria-live="polite">
        {shown ? `${first + 1}–${first + shown}` : "0"} of {total}
      </span>
      {filters.page > 1 && <Link to={link(filters.page - 1)}>Previous</Link>}
      {first + shown < total && <Link to={link(filters.page + 1)}>Next</Link>}
    </nav>
  );
}

export default function RunsPage() {
  const { owner, project } = useProject();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const query = toQuery(filters);
  const runs = useQuery({
    queryKey: [...runKeys.all(owner, project), "list", query],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/runs", { params: { path: { owner, project }, query } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => pollWhileLive(q.state.data?.runs.map((r) => r.status) ?? []),
  });
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">Runs</h1>
      <RunFiltersForm key={params.toString()} value={filters} onApply={(next) => setParams(writeFilters(next))} />
      {runs.isPending ? (
        <Loading what="Loading runs" />
      ) : runs.isError ? (
        <ErrorView error={runs.error} retry={() => void runs.refetch()} />
      ) : runs.data.runs.length === 0 && !hasFilters(filters) && filters.page === 1 ? (
        <EmptyState title="No runs yet" command={`axonal run -f polyaxonfile.yaml --project ${owner}/${project}`}>
          Start one from the CLI, or track one from Python with <code>axonal.tracking.init()</code>.
        </EmptyState>
      ) : runs.data.runs.length === 0 ? (
        <EmptyState title="No run matches these filters" />
      ) : (
        <>
          <RunsTable runs={runs.data.runs} />
          <Pager filters={filters} total={runs.data.total} shown={runs.data.runs.length} />
        </>
      )}
    </section>
  );
}
