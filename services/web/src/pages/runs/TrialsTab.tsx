/** A matrix sweep's trials: their params, the objective's last value and status, the best one
 * marked, sortable; and a plot of the params against the objective. An adaptive sweep shows
 * its study above them instead of that plot (its history, parallel coordinates, importances). */
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link, useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { StatusBadge } from "../../components/StatusBadge";
import { type Column, VirtualTable } from "../../components/VirtualTable";
import { formatNumber, formatValue } from "../../lib/format";
import { runQuery } from "../../lib/metrics";
import { useProject } from "../../lib/params";
import { pollWhileLive } from "../../lib/runStatus";
import { useChildren } from "./children";
import { searchesAdaptively, studyPoll, studyQuery } from "./study";
import { StudyView } from "./StudyView";
import { TrialsPlot } from "./TrialsPlot";
import { bestTrial, type Direction, objectiveOf, type SortKey, sortTrials, sweptParams, type Trial } from "./trials";

type ComparedRun = components["schemas"]["ComparedRun"];
/** The compare endpoint takes this many runs a request. */
const COMPARE_BATCH = 50;

function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** The last metric values of every trial, read through the compare endpoint in batches. */
function useLastMetrics(owner: string, project: string, uuids: string[], live: number | false) {
  return useQueries({
    queries: chunks(uuids, COMPARE_BATCH).map((run) => ({
      queryKey: ["compare", owner, project, run],
      queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/compare", { params: { path: { owner, project }, query: { run } } })),
      refetchInterval: live,
      placeholderData: keepPreviousData,
    })),
    combine: (results) => ({
      runs: results.flatMap((r) => r.data?.runs ?? []),
      error: results.find((r) => r.isError)?.error,
    }),
  });
}

export default function TrialsTab() {
  const { uuid = "" } = useParams();
  const { owner, project, base } = useProject();
  const sweep = useQuery({ ...runQuery(owner, project, uuid), refetchInterval: (q) => pollWhileLive([q.state.data?.status]) });
  const kids = useChildren(owner, project, uuid, sweep.data?.status);
  const adaptive = searchesAdaptively(sweep.data?.compiled);
  const study = useQuery({ ...studyQuery(owner, project, uuid), refetchInterval: (q) => studyPoll(q.state.data, adaptive, sweep.data?.status) });
  const trials = kids.data?.runs ?? [];
  const live = pollWhileLive([sweep.data?.status, ...trials.map((t) => t.status)]);
  const last = useLastMetrics(owner, project, trials.map((t) => t.uuid), live);
  const [chosenMetric, setMetric] = useState<string | null>(null);
  const [chosenDirection, setDirection] = useState<Direction | null>(null);
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean } | null>(null);

  const metricNames = useMemo(() => [...new Set(last.runs.flatMap((r) => Object.keys(r.metrics)))].sort(), [last.runs]);
  const objective = sweep.data?.objective;
  const metric = chosenMetric ?? objective?.metric ?? metricNames[0] ?? null;
  const direction: Direction = chosenDirection ?? objective?.optimization ?? "maximize";
  const params = useMemo(() => sweptParams(trials.map((t) => t.inputs ?? {})), [trials]);
  const rows = useMemo(() => {
    const metrics = new Map<string, ComparedRun["metrics"]>(last.runs.map((r) => [r.uuid, r.metrics]));
    return trials.map(
      (t): Trial => ({
        uuid: t.uuid,
        name: t.name ?? t.uuid.slice(0, 8),
        status: t.status,
        params: t.inputs ?? {},
        objective: metric ? objectiveOf(metrics.get(t.uuid)?.[metric]) : NaN,
      }),
    );
  }, [trials, last.runs, metric]);
  const best = bestTrial(rows, direction);
  const ordered = sort ? sortTrials(rows, sort.key, sort.descending) : rows;

  if (sweep.isPending || kids.isPending || (adaptive && study.isPending)) return <Loading what="Loading the trials" />;
  if (sweep.isError) return <ErrorView error={sweep.error} retry={() => void sweep.refetch()} />;
  if (kids.isError) return <ErrorView error={kids.error} retry={() => void kids.refetch()} />;
  if (trials.length === 0) {
    return (
      <EmptyState title="No trials yet" command="axonal run -f sweep.yaml   # with matrix: {kind: grid, params: {lr: {kind: choice, value: [0.1, 0.01]}}}">
        A matrix run's trials appear here once it has started them.
      </EmptyState>
    );
  }

  const header = (key: SortKey, label: string) => {
    const active = sort?.key === key;
    const arrow = active ? (sort.descending ? " ↓" : " ↑") : "";
    return (
      <button type="button" className="sort" aria-label={`Sort by ${label}`} aria-pressed={active} onClick={() => setSort({ key, descending: active ? !sort.descending : key === "objective" && direction === "maximize" })}>
        {label}
        {arrow}
      </button>
    );
  };
  const columns: Column<Trial>[] = [
    { key: "best", header: "", width: "48px", cell: (t) => (t.uuid === best?.uuid ? <span className="best" aria-label="best trial" title="best trial">★</span> : null) },
    { key: "name", header: header("name", "Trial"), width: "2fr", cell: (t) => <Link to={`${base}/runs/${t.uuid}`}>{t.name}</Link> },
    { key: "status", header: header("status", "Status"), width: "130px", cell: (t) => <StatusBadge status={t.status} /> },
    ...params.map((p): Column<Trial> => ({ key: `param:${p}`, header: header(`param:${p}`, p), align: "right", cell: (t) => <span className="mono">{formatValue(t.params[p])}</span> })),
    { key: "objective", header: header("objective", metric ?? "objective"), align: "right", cell: (t) => <span className="mono">{Number.isNaN(t.objective) ? "–" : formatNumber(t.objective)}</span> },
  ];

  return (
    <section aria-label="Trials" className="trials" data-best={best?.uuid ?? ""}>
      {study.data && <StudyView study={study.data} base={base} />}
      {study.isError && (
        <p className="error" role="alert">
          The study could not be read: {study.error.message}
        </p>
      )}
      {study.data && <h2>Trials</h2>}
      <div className="toolbar">
        <label>
          Objective
          <select value={metric ?? ""} onChange={(e) => setMetric(e.target.value)} aria-label="Objective metric" disabled={metricNames.length === 0}>
            {metric && !metricNames.includes(metric) && <option value={metric}>{metric}</option>}
            {metricNames.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          <select value={direction} onChange={(e) => setDirection(e.target.value as Direction)} aria-label="Optimization">
            <option value="maximize">maximize</option>
            <option value="minimize">minimize</option>
          </select>
        </label>
        {best && (
          <span>
            Best: <Link to={`${base}/runs/${best.uuid}`}>{best.name}</Link> <span className="mono">({formatNumber(best.objective)})</span>
          </span>
        )}
        {last.error != null && <span className="error" role="alert">Metrics could not be read: {last.error instanceof Error ? last.error.message : String(last.error)}</span>}
      </div>
      <VirtualTable rows={ordered} columns={columns} rowKey={(t) => t.uuid} label="Trials" selected={(t) => t.uuid === best?.uuid} maxHeight={420} />
      {!study.data && <ParamsPlot trials={rows} params={params} objective={metric} best={best?.uuid ?? null} />}
    </section>
  );
}

/** The params against the objective: parallel coordinates, or a scatter of one param. */
function ParamsPlot({ trials, params, objective, best }: { trials: Trial[]; params: string[]; objective: string | null; best: string | null }) {
  const [scatterOf, setScatterOf] = useState<string | null>(null);
  return (
    <>
      <h2>Params against {objective ?? "the objective"}</h2>
      <div className="toolbar">
        <label>
          View
          <select value={scatterOf ?? ""} onChange={(e) => setScatterOf(e.target.value || null)} aria-label="Plot">
            <option value="">parallel coordinates</option>
            {params.map((p) => (
              <option key={p} value={p}>
                scatter: {p}
              </option>
            ))}
          </select>
        </label>
      </div>
      <TrialsPlot trials={trials} params={params} scatterOf={scatterOf} objective={objective ?? "objective"} best={best} />
    </>
  );
}
