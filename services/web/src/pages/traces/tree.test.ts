import { barOf, buildTree, parentIds, span, visibleRows } from "./tree";

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const obs = (id: string, parent: string | null, start: number, end?: number) => ({
  id,
  parent_observation_id: parent,
  start_time: at(start),
  end_time: end === undefined ? null : at(end),
});

const names = (rows: { node: { observation: { id: string }; depth: number } }[]) =>
  rows.map((r) => `${"-".repeat(r.node.depth)}${r.node.observation.id}`);

test("flat observations nest under their parents, each level by start time", () => {
  const roots = buildTree([obs("c", "a", 3, 4), obs("b", "a", 1, 2), obs("a", null, 0, 5), obs("d", "b", 1, 2), obs("e", null, 6)]);
  expect(names(visibleRows(roots, new Set()))).toEqual(["a", "-b", "--d", "-c", "e"]);
});

test("an observation whose parent is not stored yet is a root", () => {
  const roots = buildTree([obs("x", "missing", 1, 2), obs("a", null, 0, 1)]);
  expect(names(visibleRows(roots, new Set()))).toEqual(["a", "x"]);
});

test("a cycle of parents is cut rather than lost or looping", () => {
  const roots = buildTree([obs("a", "b", 0, 1), obs("b", "a", 1, 2), obs("self", "self", 3)]);
  const rows = names(visibleRows(roots, new Set()));
  expect(rows).toHaveLength(3);
  expect(rows).toContain("self");
});

test("collapsing a node hides its subtree, and only that", () => {
  const roots = buildTree([obs("a", null, 0, 5), obs("b", "a", 1, 2), obs("d", "b", 1, 2), obs("c", "a", 3, 4)]);
  expect(names(visibleRows(roots, new Set(["b"])))).toEqual(["a", "-b", "-c"]);
  expect(names(visibleRows(roots, new Set(["a"])))).toEqual(["a"]);
  expect(parentIds(roots).sort()).toEqual(["a", "b"]);
});

test("a deep chain builds without overflowing the stack", () => {
  const chain = Array.from({ length: 20_000 }, (_, i) => obs(`n${i}`, i ? `n${i - 1}` : null, i));
  const rows = visibleRows(buildTree(chain), new Set());
  expect(rows).toHaveLength(20_000);
  expect(rows[19_999].node.depth).toBe(19_999);
});

test("waterfall bars sit where their observations ran within the trace", () => {
  const roots = buildTree([obs("a", null, 0, 10), obs("b", "a", 5, 7), obs("e", "a", 10)]);
  const whole = span(roots);
  expect(whole.end - whole.start).toBe(10_000);
  const [a] = roots;
  const [b, e] = a.children;
  expect(barOf(a, whole)).toEqual({ left: 0, width: 100 });
  expect(barOf(b, whole)).toEqual({ left: 50, width: 20 });
  expect(barOf(e, whole).left).toBe(100); // an event: a sliver at its time
  expect(barOf(a, { start: 0, end: 0 })).toEqual({ left: 0, width: 100 });
});
