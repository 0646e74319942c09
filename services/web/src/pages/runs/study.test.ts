import { bestSoFar, colourOf, importanceRows, paramOrder, progressOf, searchesAdaptively, STUDY_POLL_MS, type Study, type StudyTrial, studyPoll } from "./study";
import { axisOf } from "./trials";

const trial = (number: number, state: StudyTrial["state"], value: number | null = null, params: Record<string, unknown> = {}): StudyTrial => ({
  number,
  run_uuid: String(number).repeat(32),
  params,
  state,
  value,
});
const TRIALS = [trial(0, "complete", 5), trial(2, "complete", 3), trial(1, "pruned", 9), trial(3, "failed"), trial(4, "complete", 4), trial(5, "running"), trial(6, "complete", 1)];

const aStudy = (fields: Partial<Study> = {}): Study => ({
  sweep_uuid: "a".repeat(32),
  kind: "tpe",
  state: "running",
  direction: "minimize",
  trials: [],
  importances: {},
  approximations: [],
  ...fields,
});

test("the best so far follows the complete trials in number order, by the study's direction", () => {
  expect(bestSoFar(TRIALS, "minimize")).toEqual([
    { number: 0, value: 5 },
    { number: 2, value: 3 },
    { number: 4, value: 3 },
    { number: 6, value: 1 },
  ]);
  expect(bestSoFar(TRIALS, "maximize").map((p) => p.value)).toEqual([5, 5, 5, 5]); // the pruned 9 does not count
  expect(bestSoFar([trial(0, "failed"), trial(1, "running")], "minimize")).toEqual([]);
});

test("importances are listed largest first, ties by name, with their percentage", () => {
  expect(importanceRows({ y: 0.25, x: 0.625, z: 0.125 })).toEqual([
    { param: "x", share: 0.625, percent: "62.5%" },
    { param: "y", share: 0.25, percent: "25.0%" },
    { param: "z", share: 0.125, percent: "12.5%" },
  ]);
  expect(importanceRows({ b: 0.5, a: 0.5 }).map((r) => r.param)).toEqual(["a", "b"]);
  expect(importanceRows({})).toEqual([]);
});

test("the parallel axes put the most important params first, the others by name", () => {
  const trials = [trial(0, "complete", 1, { lr: 0.1, opt: "sgd", seed: 1, batch: 8 })];
  expect(paramOrder(trials, { opt: 0.2, lr: 0.8 })).toEqual(["lr", "opt", "batch", "seed"]);
  expect(paramOrder(trials, {})).toEqual(["batch", "lr", "opt", "seed"]);
});

test("an axis scales numbers linearly and spaces categories evenly", () => {
  const lr = axisOf([0.001, 0.1, 0.01]);
  expect(lr.position(0.001)).toBe(0);
  expect(lr.position(0.1)).toBe(1);
  expect(lr.position(0.0505)).toBeCloseTo(0.5);
  const opt = axisOf(["sgd", "adam", "rmsprop", "adam"]);
  expect(["adam", "rmsprop", "sgd"].map(opt.position)).toEqual([0, 0.5, 1]);
  const mixed = axisOf([1, "auto"]); // not all numbers: categories
  expect(mixed.ticks.map((t) => t.label)).toEqual(["auto", "1"]);
  const flat = axisOf([3, 3]); // one value: mid-axis, one tick
  expect(flat.position(3)).toBe(0.5);
  expect(flat.ticks).toEqual([{ at: 0.5, label: "3" }]);
});

test("a study is read again while its search runs, or while an adaptive sweep waits for it", () => {
  expect(studyPoll(aStudy({ state: "running" }), true, "running")).toBe(STUDY_POLL_MS);
  expect(studyPoll(aStudy({ state: "finished" }), true, "running")).toBe(false);
  expect(studyPoll(aStudy({ state: "ended" }), true, "stopped")).toBe(false);
  expect(studyPoll(null, true, "running")).toBe(STUDY_POLL_MS); // not started by the optimization service yet
  expect(studyPoll(null, true, "succeeded")).toBe(false);
  expect(studyPoll(null, false, "running")).toBe(false); // a grid: no study ever
  expect(studyPoll(undefined, true, "running")).toBe(false); // the first read is under way
});

test("an adaptive sweep's compiled matrix gives a search space", () => {
  expect(searchesAdaptively({ matrix: { kind: "tpe", search_space: { params: {} } } })).toBe(true);
  expect(searchesAdaptively({ matrix: { kind: "grid", points: [] } })).toBe(false);
  expect(searchesAdaptively({})).toBe(false);
  expect(searchesAdaptively(null)).toBe(false);
});

test("progress counts the ended trials against the budget, and the running ones", () => {
  expect(progressOf({ trials: TRIALS, budget: 10 })).toBe("6 / 10 trials, 1 running");
  expect(progressOf({ trials: TRIALS.slice(0, 2), budget: null })).toBe("2 trials");
});

test("the better end of the objective is blue, the worse orange, whichever the direction", () => {
  expect(colourOf(0, "minimize")).toBe("rgb(59, 91, 219)");
  expect(colourOf(1, "minimize")).toBe("rgb(232, 89, 12)");
  expect(colourOf(1, "maximize")).toBe("rgb(59, 91, 219)");
  expect(colourOf(2, "maximize")).toBe(colourOf(1, "maximize"));
});
