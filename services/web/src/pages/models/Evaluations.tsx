/** A model version's evaluation scores, each checked against the gates of the model's
 * aliases (an alias with gates takes only a version whose latest scores meet them). */
import { Link } from "react-router";
import type { components } from "../../api/schema";
import { ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { useGates, useScores } from "./queries";

type Gate = components["schemas"]["PromotionGate"];
type Score = components["schemas"]["ModelVersionScore"];

const COMPARE: Record<Gate["op"], (a: number, b: number) => boolean> = {
  ">=": (a, b) => a >= b,
  ">": (a, b) => a > b,
  "<=": (a, b) => a <= b,
  "<": (a, b) => a < b,
};

/** The newest score of each metric. */
function latest(scores: Score[]): Map<string, Score> {
  const found = new Map<string, Score>();
  for (const s of scores) {
    const known = found.get(s.name);
    if (!known || s.recorded_at > known.recorded_at) found.set(s.name, s);
  }
  return found;
}

function GateList({ gates, scores }: { gates: Record<string, Gate[]>; scores: Map<string, Score> }) {
  const aliases = Object.keys(gates).sort();
  if (!aliases.length) return <p className="muted">No alias requires scores.</p>;
  return (
    <ul aria-label="Promotion gates">
      {aliases.map((alias) => {
        const held = gates[alias].map((g) => {
          const s = scores.get(g.metric);
          return { gate: g, met: s !== undefined && COMPARE[g.op](s.value, g.threshold) };
        });
        const ok = held.every((h) => h.met);
        return (
          <li key={alias} data-alias={alias}>
            <code className="chip">{alias}</code> requires {held.map((h) => `${h.gate.metric} ${h.gate.op} ${h.gate.threshold}`).join(", ")}:{" "}
            {ok ? <span className="tone-ok">met</span> : <span className="tone-bad">not met</span>}
          </li>
        );
      })}
    </ul>
  );
}

export function Evaluations({ model, version }: { model: string; version: number }) {
  const { owner, project, base } = useProject();
  const scores = useScores(owner, project, model, version);
  const gates = useGates(owner, project, model);
  if (scores.isPending || gates.isPending) return <Loading what="Loading the evaluations" />;
  if (scores.isError) return <ErrorView error={scores.error} retry={() => void scores.refetch()} />;
  if (gates.isError) return <ErrorView error={gates.error} retry={() => void gates.refetch()} />;
  const rows = scores.data.scores;
  return (
    <section className="panel" aria-label="Evaluations">
      <h2>Evaluations of v{version}</h2>
      <GateList gates={gates.data.gates} scores={latest(rows)} />
      {rows.length ? (
        <table className="grid" aria-label="Evaluation scores">
          <thead>
            <tr>
              <th>Score</th>
              <th>Value</th>
              <th>Run</th>
              <th>Dataset</th>
              <th>Recorded</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={`${s.name}/${s.run_uuid}`}>
                <td>{s.name}</td>
                <td>{s.value}</td>
                <td>
                  <Link to={`${base}/runs/${s.run_uuid}`}>{s.run_uuid.slice(0, 8)}</Link>
                </td>
                <td>{s.dataset ? <code title={s.dataset}>{s.dataset.split("@")[0]}</code> : <span className="muted">–</span>}</td>
                <td>{formatTime(s.recorded_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No evaluation yet: an evaluation run records scores with tracking.log_model_scores.</p>
      )}
    </section>
  );
}
