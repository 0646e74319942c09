/** One metric as a uPlot line chart, one line per series (a run), in the theme's colours.
 * Dragging across the chart selects an x range and hands it to ``onZoom``. */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { XAxis } from "../../lib/series";
import { useThemeColours } from "./colours";

export interface ChartLine {
  label: string;
  xs: number[];
  ys: number[];
}

interface Props {
  name: string;
  lines: ChartLine[];
  x: XAxis;
  logY: boolean;
  onZoom?: (lo: number, hi: number) => void;
  height?: number;
}

/** uPlot's columns: one shared x column, each line's y at those x (null where it has none). */
function columns(lines: ChartLine[]): uPlot.AlignedData {
  if (lines.length === 1) return [lines[0].xs, lines[0].ys];
  return uPlot.join(lines.map((l) => [l.xs, l.ys] as uPlot.AlignedData));
}

export function MetricChart({ name, lines, x, logY, onZoom, height = 220 }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const colours = useThemeColours();
  const [width, setWidth] = useState(0);
  const widthNow = useRef(0);
  widthNow.current = width;
  const ready = width > 0;
  const chart = useRef<uPlot | null>(null);

  // Measured before the first paint, so the chart is made in the same frame, not one later.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth || 600);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !ready) return;
    const axis = { stroke: colours.muted, grid: { stroke: colours.grid, width: 1 }, ticks: { stroke: colours.grid } };
    const options: uPlot.Options = {
      width: widthNow.current,
      height,
      scales: { x: { time: false }, y: { distr: logY ? 3 : 1 } },
      axes: [
        { ...axis, label: x === "step" ? "step" : "seconds", labelSize: 18 },
        { ...axis, size: 60 },
      ],
      series: [
        { label: x },
        ...lines.map((l, i) => ({
          label: l.label,
          stroke: colours.series[i % colours.series.length],
          width: 1.5,
          spanGaps: true,
          points: { show: l.xs.length < 60 },
        })),
      ],
      cursor: { drag: { x: true, y: false, setScale: false } },
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 3 || !zoom.current) return;
            zoom.current(u.posToVal(u.select.left, "x"), u.posToVal(u.select.left + u.select.width, "x"));
          },
        ],
      },
    };
    chart.current = new uPlot(options, columns(lines), el);
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [lines, x, logY, colours, height, ready]); // a new width only resizes it (below)

  useEffect(() => {
    if (width > 0) chart.current?.setSize({ width, height });
  }, [width, height]);

  const drawn = lines.reduce((n, l) => n + l.ys.length, 0);
  return <div ref={box} className="metric-chart" role="img" aria-label={`metric ${name}`} data-points={drawn} />;
}
