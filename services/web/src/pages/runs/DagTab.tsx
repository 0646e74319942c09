/** A DAG run's graph: one node per op with its live status, edges from its upstream ops;
 * a node opens its op's run. */
import "@xyflow/react/dist/style.css";
import { useQuery } from "@tanstack/react-query";
import { Background, Controls, Handle, type NodeProps, Position, ReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { EmptyState, ErrorView, Loading } from "../../components/States";
import { StatusBadge } from "../../components/StatusBadge";
import { useColorMode } from "../../components/charts/colours";
import { runQuery } from "../../lib/metrics";
import { useProject } from "../../lib/params";
import { pollWhileLive } from "../../lib/runStatus";
import { layoutDag, type OpNodeType } from "./dagLayout";
import { useChildren } from "./children";

function OpNode({ data }: NodeProps<OpNodeType>) {
  const { base } = useProject();
  return (
    <div data-op={data.name} data-status={data.status ?? "pending"}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      {data.uuid ? (
        <Link className="op-name" to={`${base}/runs/${data.uuid}`} aria-label={`op ${data.name}`}>
          {data.name}
        </Link>
      ) : (
        <span className="op-name">{data.name}</span>
      )}
      <StatusBadge status={data.status ?? "created"} />
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

const NODE_TYPES = { op: OpNode };

export default function DagTab() {
  const { uuid = "" } = useParams();
  const { owner, project, base } = useProject();
  const navigate = useNavigate();
  const colorMode = useColorMode();
  const run = useQuery({ ...runQuery(owner, project, uuid), refetchInterval: (q) => pollWhileLive([q.state.data?.status]) });
  const kids = useChildren(owner, project, uuid, run.data?.status);
  const upstream = run.data?.upstream;
  const graph = useMemo(() => {
    const byOp = new Map((kids.data?.runs ?? []).filter((k) => k.op_name).map((k) => [k.op_name as string, k]));
    return upstream ? layoutDag(upstream, byOp) : null;
  }, [upstream, kids.data]);

  if (run.isPending || kids.isPending) return <Loading what="Loading the pipeline" />;
  if (run.isError) return <ErrorView error={run.error} retry={() => void run.refetch()} />;
  if (kids.isError) return <ErrorView error={kids.error} retry={() => void kids.refetch()} />;
  if (!graph || graph.nodes.length === 0) {
    return (
      <EmptyState title="This run is not a DAG" command="axonal run -f examples/train-evaluate.yaml">
        A run whose component is a <code>kind: dag</code> shows its operations and their dependencies here.
      </EmptyState>
    );
  }
  return (
    <section aria-label="Pipeline graph" className="dag" data-ops={graph.nodes.length} data-edges={graph.edges.length}>
      <ReactFlow
        nodes={graph.nodes}
        edges={graph.edges}
        nodeTypes={NODE_TYPES}
        nodesDraggable={false}
        nodesConnectable={false}
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        proOptions={{ hideAttribution: true }}
        onNodeClick={(_, node) => node.data.uuid && navigate(`${base}/runs/${node.data.uuid}`)}
        colorMode={colorMode}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </section>
  );
}
