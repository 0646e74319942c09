/** A DAG's ops as React Flow nodes and edges, placed by dagre (upstream above downstream). */
import dagre from "@dagrejs/dagre";
import type { Edge, Node } from "@xyflow/react";

export const NODE_WIDTH = 180;
export const NODE_HEIGHT = 64;

/** What an op's node shows: its name, and its run once the pipeline created it. */
export type OpData = { name: string; uuid: string | null; status: string | null };
export type OpNodeType = Node<OpData, "op">;

/** ``upstream``: each op with the ops it waits for; ``runs``: the children by op name. */
export function layoutDag(
  upstream: Record<string, string[]>,
  runs: Map<string, { uuid: string; status: string }>,
): { nodes: OpNodeType[]; edges: Edge[] } {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "TB", nodesep: 40, ranksep: 60 });
  graph.setDefaultEdgeLabel(() => ({}));
  const names = Object.keys(upstream);
  for (const name of names) graph.setNode(name, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const edges: Edge[] = [];
  for (const name of names) {
    for (const from of upstream[name]) {
      if (!(from in upstream)) continue;
      graph.setEdge(from, name);
      edges.push({ id: `${from}->${name}`, source: from, target: name });
    }
  }
  dagre.layout(graph);
  const nodes = names.map((name): OpNodeType => {
    const { x, y } = graph.node(name);
    const run = runs.get(name);
    return {
      id: name,
      type: "op",
      position: { x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 },
      data: { name, uuid: run?.uuid ?? null, status: run?.status ?? null },
      className: "op",
    };
  });
  return { nodes, edges };
}
