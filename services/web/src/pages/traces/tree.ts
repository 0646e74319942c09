/** Flat observations → a tree in start-time order, and the rows of the tree as it is expanded. */

/** What the tree needs of an observation. */
export interface TreeInput {
  id: string;
  parent_observation_id?: string | null;
  start_time: string;
  end_time?: string | null;
}

export interface TreeNode<T extends TreeInput> {
  observation: T;
  depth: number;
  children: TreeNode<T>[];
  /** Milliseconds since the epoch. */
  start: number;
  /** The end, else the start (an event, or a span not ended yet). */
  end: number;
}

/** A visible row of the tree: its node and where it sits among its siblings. */
export interface TreeRow<T extends TreeInput> {
  node: TreeNode<T>;
  parentId: string | null;
}

const byStart = <T extends TreeInput>(a: TreeNode<T>, b: TreeNode<T>) =>
  a.start - b.start || a.observation.id.localeCompare(b.observation.id);

/**
 * The roots of the tree: observations nested under their parents, each level by start time.
 * An observation whose parent is not among them (not stored yet) is a root, not lost.
 */
export function buildTree<T extends TreeInput>(observations: readonly T[]): TreeNode<T>[] {
  const nodes = new Map<string, TreeNode<T>>();
  for (const observation of observations) {
    const start = Date.parse(observation.start_time);
    const end = observation.end_time ? Date.parse(observation.end_time) : start;
    nodes.set(observation.id, { observation, depth: 0, children: [], start, end: Math.max(start, end) });
  }
  const roots: TreeNode<T>[] = [];
  for (const node of nodes.values()) {
    const parentId = node.observation.parent_observation_id;
    const parent = parentId && parentId !== node.observation.id ? nodes.get(parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  // Depths and ordering without recursion (deep chains must not overflow the stack); a cycle
  // of parents (never a root) is cut where it is met, its members shown as roots.
  const seen = new Set<TreeNode<T>>();
  const order = (level: TreeNode<T>[], depth: number) => {
    const stack: [TreeNode<T>[], number][] = [[level, depth]];
    while (stack.length) {
      const [siblings, d] = stack.pop()!;
      siblings.sort(byStart);
      for (const node of siblings) {
        seen.add(node);
        node.depth = d;
        stack.push([node.children, d + 1]);
      }
    }
  };
  order(roots, 0);
  for (const node of nodes.values()) {
    if (seen.has(node)) continue;
    for (const other of nodes.values()) {
      const i = other.children.indexOf(node);
      if (i >= 0) other.children.splice(i, 1);
    }
    roots.push(node);
    order([node], 0);
  }
  roots.sort(byStart);
  return roots;
}

/** The rows shown, depth first, skipping the children of collapsed nodes. */
export function visibleRows<T extends TreeInput>(roots: TreeNode<T>[], collapsed: ReadonlySet<string>): TreeRow<T>[] {
  const rows: TreeRow<T>[] = [];
  const stack: TreeRow<T>[] = roots.map((node) => ({ node, parentId: null })).reverse();
  while (stack.length) {
    const row = stack.pop()!;
    rows.push(row);
    if (collapsed.has(row.node.observation.id)) continue;
    const id = row.node.observation.id;
    for (let i = row.node.children.length - 1; i >= 0; i--) stack.push({ node: row.node.children[i], parentId: id });
  }
  return rows;
}

/** The time span every node falls in: the earliest start and latest end. */
export function span<T extends TreeInput>(roots: TreeNode<T>[]): { start: number; end: number } {
  let start = Infinity;
  let end = -Infinity;
  const stack = [...roots];
  while (stack.length) {
    const node = stack.pop()!;
    start = Math.min(start, node.start);
    end = Math.max(end, node.end);
    stack.push(...node.children);
  }
  return Number.isFinite(start) ? { start, end } : { start: 0, end: 0 };
}

/** A waterfall bar: its offset and width as percentages of the trace's span. */
export function barOf(node: { start: number; end: number }, whole: { start: number; end: number }): { left: number; width: number } {
  const length = whole.end - whole.start;
  if (length <= 0) return { left: 0, width: 100 };
  const left = ((node.start - whole.start) / length) * 100;
  const width = ((node.end - node.start) / length) * 100;
  return { left, width: Math.min(Math.max(width, 0.3), 100 - left) };
}

/** The ids of every node that has children: what "collapse all" collapses. */
export function parentIds<T extends TreeInput>(roots: TreeNode<T>[]): string[] {
  const ids: string[] = [];
  const stack = [...roots];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.children.length) ids.push(node.observation.id);
    stack.push(...node.children);
  }
  return ids;
}
