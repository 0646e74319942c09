/** A run's metrics: one chart per metric, downsampled by the api, zoomable, live while the run is. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useParams } from "react-router";
import { ChartControls, useChartSettings } from "../../components/charts/ChartControls";
import { MetricPanel } from "../../components/charts/MetricPanel";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { runQuery, seriesQuery, startOf } from "../../lib/metrics";
import { useProject } from "../../lib/params";
import { pollWhileLive, SERIES_POLL_MS } from "../../lib/runStatus";

export default function MetricsTab() {
  const { uuid = "" } = useParams();
  const { owner, project } = useProject();
  const [settings, change] = useChartSettings();
  const run = useQuery({ ...runQuery(owner, project, uuid), refetchInterval: (q) => pollWhileLive([q.state.data?.status]) });
  const live = run.data ? pollWhileLive([run.data.status], SERIES_POLL_MS) : false;
  const metrics = useQuery({ ...seriesQuery(owner, project, uuid, settings.range), refetchInterval: live, placeholderData: keepPreviousData });
  const series = metrics.data?.series;
  const origin = run.data ? startOf(run.data) : Date.parse(series?.find((s) => s.points[0]?.at)?.points[0].at ?? "") || 0;
  // each panel's series keep their identity until their data changes: a chart is drawn anew only then
  const panels = useMemo(() => (series ?? []).map((s) => ({ name: s.name, series: [{ label: s.name, series: s, origin }] })), [series, origin]);

  if (metrics.isPending) return <Loading what="Loading metrics" />;
  if (metrics.isError) return <ErrorView error={metrics.error} retry={() => void metrics.refetch()} />;
  if (panels.length === 0 && !settings.range) {
    return (
      <EmptyState title="No metrics yet" command="from axonal.tracking import log_metrics; log_metrics(step=step, loss=loss)">
        Metrics appear here as the run logs them with the SDK.
      </EmptyState>
    );
  }
  return (
    <section aria-label="Metrics">
      <ChartControls settings={settings} onChange={change} />
      <div className="charts">
        {panels.map((panel) => (
          <MetricPanel
            key={panel.name}
            name={panel.name}
            series={panel.series}
            settings={settings}
            onZoom={(range) => change({ range })}
          />
        ))}
      </div>
    </section>
  );
}
