/** Metric series as charts draw them: numbers from the wire, x by step or time, EMA smoothing. */
import type { components } from "../api/schema";

export type SeriesPoint = components["schemas"]["SeriesPoint"];
export type MetricSeries = components["schemas"]["MetricSeries"];
export type WireValue = SeriesPoint["value"];
export type XAxis = "step" | "time";

/** A wire value as a number: "NaN", "Infinity" and "-Infinity" become the numbers they name. */
export function toNumber(value: WireValue): number {
  if (typeof value === "number") return value;
  if (value === "Infinity") return Infinity;
  if (value === "-Infinity") return -Infinity;
  return NaN;
}

/** A line ready to draw: x and y of the finite points, and how many were left out. */
export interface Line {
  xs: number[];
  ys: number[];
  steps: number[];
  /** Points not drawn: their value is NaN or infinite (or not positive on a log scale). */
  skipped: number;
  /** NaN values the series holds (inside downsampled buckets too). */
  nans: number;
}

/** The points of a series to draw: finite values only (positive ones on a log scale), x by
 * step or by seconds since ``origin`` (a time in ms, e.g. when the run started). */
export function toLine(points: SeriesPoint[], x: XAxis, origin: number, logY = false): Line {
  const line: Line = { xs: [], ys: [], steps: [], skipped: 0, nans: 0 };
  for (const p of points) {
    line.nans += p.nans ?? 0;
    const y = toNumber(p.value);
    if (!Number.isFinite(y) || (logY && y <= 0) || (x === "time" && !p.at)) {
      line.skipped += 1;
      continue;
    }
    line.xs.push(x === "step" ? p.step : (Date.parse(p.at as string) - origin) / 1000);
    line.ys.push(y);
    line.steps.push(p.step);
  }
  return line;
}

/** TensorBoard's smoothing: an exponential moving average, debiased so the first points are
 * not pulled towards 0. ``weight`` 0 leaves the values as they are; 0.99 smooths the most. */
export function ema(values: number[], weight: number): number[] {
  if (weight <= 0) return values;
  let last = 0;
  return values.map((value, i) => {
    last = last * weight + (1 - weight) * value;
    return last / (1 - weight ** (i + 1));
  });
}

/** The steps a zoom selects: the x range [lo, hi] of a line as the steps it spans (on a
 * time axis, the steps logged in that time), ``null`` when no point lies in it. */
export function stepsIn(line: Pick<Line, "xs" | "steps">, lo: number, hi: number): [number, number] | null {
  let first: number | null = null;
  let last: number | null = null;
  line.xs.forEach((x, i) => {
    if (x < lo || x > hi) return;
    const step = line.steps[i];
    first = first === null ? step : Math.min(first, step);
    last = last === null ? step : Math.max(last, step);
  });
  return first === null || last === null ? null : [first, last];
}
