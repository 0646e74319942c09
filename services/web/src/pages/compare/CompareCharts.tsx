/** Every metric of the compared runs as one chart, one line per run, the controls shared. */
import { keepPreviousData, useQueries } from "@tanstack/react-query";
import { useMemo } from "react";
import type { components } from "../../api/schema";
import { ChartControls, useChartSettings } from "../../components/charts/ChartControls";
import { MetricPanel, type PanelSeries } from "../../components/charts/MetricPanel";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { seriesQuery, startOf } from "../../lib/metrics";
import { pollWhileLive, SERIES_POLL_MS } from "../../lib/runStatus";

type ComparedRun = components["schemas"]["ComparedRun"];

interface Props {
  owner: string;
  project: string;
  runs: ComparedRun[];
  labels: Map<string, string>;
}

export function CompareCharts({ owner, project, runs, labels }: Props) {
  const [settings, change] = useChartSettings();
  const live = pollWhileLive(runs.map((r) => r.status), SERIES_POLL_MS);
  const read = useQueries({
    queries: runs.map((r) => ({ ...seriesQuery(owner, project, r.uuid, settings.range), refetchInterval: live, placeholderData: keepPreviousData })),
    combine: (results) => ({
      data: results.map((r) => r.data),
      pending: results.some((r) => r.isPending),
      error: results.find((r) => r.isError)?.error,
      retry: () => results.forEach((r) => void r.refetch()),
    }),
  });
  const panels = useMemo(() => {
    const byName = new Map<string, PanelSeries[]>();
    read.data.forEach((reply, i) => {
      const run = runs[i];
      for (const series of reply?.series ?? []) {
        const entry = { label: labels.get(run.uuid) ?? run.uuid, series, origin: startOf(run) };
        byName.set(series.name, [...(byName.get(series.name) ?? []), entry]);
      }
    });
    return [...byName.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [read.data, runs, labels]);

  if (read.pending) return <Loading what="Loading metrics" />;
  if (read.error) return <ErrorView error={read.error} retry={read.retry} />;
  if (panels.length === 0 && !settings.range) {
    return <EmptyState title="These runs logged no metrics" command="from axonal.tracking import log_metrics; log_metrics(step=step, loss=loss)" />;
  }
  return (
    <section aria-label="Metric charts">
      <h2>Metrics</h2>
      <ChartControls settings={settings} onChange={change} />
      <div className="charts">
        {panels.map(([name, series]) => (
          <MetricPanel key={name} name={name} series={series} settings={settings} onZoom={(range) => change({ range })} />
        ))}
      </div>
    </section>
  );
}
