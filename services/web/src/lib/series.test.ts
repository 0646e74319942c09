import { ema, type SeriesPoint, stepsIn, toLine, toNumber } from "./series";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const point = (step: number, value: SeriesPoint["value"], nans = 0): SeriesPoint => ({ step, value, min: value, max: value, nans, at: at(step) });

test("wire values become numbers, non-finite ones included", () => {
  expect(toNumber(0.5)).toBe(0.5);
  expect(toNumber("Infinity")).toBe(Infinity);
  expect(toNumber("-Infinity")).toBe(-Infinity);
  expect(toNumber("NaN")).toBeNaN();
});

test("a line leaves out non-finite points and counts them", () => {
  const points = [point(0, 1), point(1, "NaN", 1), point(2, "Infinity"), point(3, 4, 2), point(4, "-Infinity")];
  const line = toLine(points, "step", 0);
  expect(line.xs).toEqual([0, 3]);
  expect(line.ys).toEqual([1, 4]);
  expect(line.skipped).toBe(3);
  expect(line.nans).toBe(3); // NaN values inside buckets too
});

test("a time axis counts seconds from the origin; a log scale leaves out what is not positive", () => {
  const origin = Date.parse(at(10));
  const line = toLine([point(10, 1), point(20, 0), point(30, -2), point(40, 3)], "time", origin, true);
  expect(line.xs).toEqual([0, 30]);
  expect(line.steps).toEqual([10, 40]);
  expect(line.skipped).toBe(2);
});

test("smoothing is TensorBoard's debiased EMA", () => {
  expect(ema([1, 2, 3], 0)).toEqual([1, 2, 3]);
  expect(ema([5, 5, 5], 0.9).map((v) => Number(v.toFixed(9)))).toEqual([5, 5, 5]); // no pull towards 0
  const [a, b] = ema([0, 10], 0.5);
  expect(a).toBe(0);
  expect(b).toBeCloseTo((0.5 * 0.5 * 0 + 0.5 * 10) / (1 - 0.25)); // (0.25 * 0 + 5) / 0.75
});

test("a zoom's x range becomes the steps it spans", () => {
  const line = { xs: [0, 1.5, 3, 4.5], steps: [100, 200, 300, 400] };
  expect(stepsIn(line, 1, 4)).toEqual([200, 300]);
  expect(stepsIn(line, 5, 9)).toBeNull();
});
