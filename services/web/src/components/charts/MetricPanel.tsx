/** One metric's chart from the api's series (one per run): non-finite points left out and
 * counted, smoothing applied, a zoom turned into the steps to read again. */
import { useMemo } from "react";
import { ema, type MetricSeries, stepsIn, toLine } from "../../lib/series";
import type { ChartSettings } from "./ChartControls";
import { MetricChart } from "./MetricChart";

export interface PanelSeries {
  label: string;
  series: MetricSeries;
  /** When the run started (ms): a time axis counts seconds from it. */
  origin: number;
}

interface Props {
  name: string;
  series: PanelSeries[];
  settings: ChartSettings;
  onZoom: (range: [number, number]) => void;
}

export function MetricPanel({ name, series, settings, onZoom }: Props) {
  const { x, logY, smoothing } = settings;
  const lines = useMemo(() => series.map((s) => ({ label: s.label, ...toLine(s.series.points, x, s.origin, logY) })), [series, x, logY]);
  const drawn = useMemo(() => lines.map((l) => ({ label: l.label, xs: l.xs, ys: ema(l.ys, smoothing) })), [lines, smoothing]);
  const skipped = lines.reduce((n, l) => n + l.skipped, 0);
  const nans = lines.reduce((n, l) => n + l.nans, 0);
  const total = series.reduce((n, s) => n + s.series.total, 0);
  const zoom = (lo: number, hi: number) => {
    const found = lines.map((l) => stepsIn(l, lo, hi)).filter((r): r is [number, number] => r !== null);
    if (found.length) onZoom([Math.min(...found.map((r) => r[0])), Math.max(...found.map((r) => r[1]))]);
  };
  return (
    <figure className="chart-panel" aria-label={`chart ${name}`}>
      <figcaption>
        <strong>{name}</strong>
        <span className="muted">
          {" "}
          {total.toLocaleString()} points
          {skipped > 0 && (
            <span className="chart-skipped" data-skipped={skipped}>
              {" "}
              · {skipped} not drawn ({logY ? "NaN, infinite or not positive" : "NaN or infinite"})
            </span>
          )}
          {nans > 0 && <span data-nans={nans}> · {nans} NaN values logged</span>}
        </span>
      </figcaption>
      <MetricChart name={name} lines={drawn} x={x} logY={logY} onZoom={zoom} />
    </figure>
  );
}
