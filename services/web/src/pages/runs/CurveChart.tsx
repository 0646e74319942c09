/** A curve (ROC, precision-recall, a histogram's counts) drawn with uPlot, loaded on first use. */
import { useEffect, useRef } from "react";
import "uplot/dist/uPlot.min.css";

interface Props {
  x: number[];
  y: number[];
  label: string;
  /** Bars (a histogram) rather than a line. */
  bars?: boolean;
}

const cssVar = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

export function CurveChart({ x, y, label, bars }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: { destroy: () => void } | undefined;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      const text = cssVar("--fg", "#222");
      const grid = cssVar("--border", "#ccc");
      const axis = { stroke: text, grid: { stroke: grid } };
      chart = new UPlot(
        {
          width: Math.max(element.clientWidth, 320),
          height: 260,
          scales: { x: { time: false } },
          axes: [axis, axis],
          legend: { show: false },
          series: [
            {},
            {
              label,
              stroke: cssVar("--accent", "#3b82f6"),
              width: 2,
              ...(bars ? { paths: UPlot.paths.bars?.({ size: [0.9, 100] }), fill: cssVar("--accent", "#3b82f6") } : {}),
            },
          ],
        },
        [x, y],
        element,
      );
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [x, y, label, bars]);
  return <div ref={box} className="chart" role="img" aria-label={label} />;
}
