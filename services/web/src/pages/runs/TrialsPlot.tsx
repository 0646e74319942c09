/** The trials' params against their objective, in SVG: parallel coordinates (one axis per
 * param, the objective last) or a scatter of one param against the objective. */
import { axisOf, type Trial } from "./trials";

const W = 860;
const H = 300;
const M = { top: 16, right: 70, bottom: 40, left: 60 };

interface Props {
  trials: Trial[];
  params: string[];
  /** ``null``: parallel coordinates; a param's name: a scatter of it against the objective. */
  scatterOf: string | null;
  objective: string;
  best: string | null;
}

const yOf = (position: number) => H - M.bottom - position * (H - M.top - M.bottom);

export function TrialsPlot({ trials, params, scatterOf, objective, best }: Props) {
  const shown = trials.filter((t) => !Number.isNaN(t.objective));
  if (shown.length === 0) return <p className="muted">No trial has logged {objective} yet.</p>;
  const scoreAxis = axisOf(shown.map((t) => t.objective));
  const label = `${scatterOf ? `${scatterOf} against ${objective}` : `params against ${objective}`}, ${shown.length} trials`;
  return (
    <svg className="plot" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} data-trials={shown.length}>
      {scatterOf ? (
        <Scatter trials={shown} param={scatterOf} scoreAxis={scoreAxis} best={best} />
      ) : (
        <Parallel trials={shown} params={params} objective={objective} scoreAxis={scoreAxis} best={best} />
      )}
      <text x={W - M.right} y={H - 8} textAnchor="end">
        {scatterOf ? `${scatterOf} →` : ""}
      </text>
      <text x={12} y={M.top} transform={`rotate(-90 12 ${M.top})`} textAnchor="end">
        {scatterOf ? objective : ""}
      </text>
    </svg>
  );
}

type Axis = ReturnType<typeof axisOf>;

function Ticks({ x, axis, anchor = "end" }: { x: number; axis: Axis; anchor?: "end" | "start" }) {
  return (
    <>
      {axis.ticks.map((t) => (
        <text key={t.label} x={x + (anchor === "end" ? -6 : 6)} y={yOf(t.at) + 4} textAnchor={anchor}>
          {t.label}
        </text>
      ))}
    </>
  );
}

interface ParallelProps {
  trials: Trial[];
  params: string[];
  objective: string;
  scoreAxis: Axis;
  best: string | null;
}

function Parallel({ trials, params, objective, scoreAxis, best }: ParallelProps) {
  const axes = [
    ...params.map((p) => ({ name: p, axis: axisOf(trials.map((t) => t.params[p])), value: (t: Trial) => t.params[p] })),
    { name: objective, axis: scoreAxis, value: (t: Trial) => t.objective },
  ];
  const xOf = (i: number) => M.left + (axes.length < 2 ? 0 : (i * (W - M.left - M.right)) / (axes.length - 1));
  const ordered = [...trials.filter((t) => t.uuid !== best), ...trials.filter((t) => t.uuid === best)]; // the best on top
  return (
    <>
      {axes.map((a, i) => (
        <g key={a.name}>
          <line className="axis" x1={xOf(i)} x2={xOf(i)} y1={M.top} y2={H - M.bottom} />
          <Ticks x={xOf(i)} axis={a.axis} anchor={i === axes.length - 1 ? "start" : "end"} />
          <text x={xOf(i)} y={H - 14} textAnchor="middle">
            {a.name}
          </text>
        </g>
      ))}
      {ordered.map((t) => (
        <polyline
          key={t.uuid}
          className={`trial${t.uuid === best ? " best" : ""}`}
          points={axes.map((a, i) => `${xOf(i)},${yOf(a.axis.position(a.value(t)))}`).join(" ")}
        >
          <title>{t.name}</title>
        </polyline>
      ))}
    </>
  );
}

function Scatter({ trials, param, scoreAxis, best }: { trials: Trial[]; param: string; scoreAxis: Axis; best: string | null }) {
  const axis = axisOf(trials.map((t) => t.params[param]));
  const xOf = (position: number) => M.left + position * (W - M.left - M.right);
  return (
    <>
      <line className="axis" x1={M.left} x2={M.left} y1={M.top} y2={H - M.bottom} />
      <line className="axis" x1={M.left} x2={W - M.right} y1={H - M.bottom} y2={H - M.bottom} />
      <Ticks x={M.left} axis={scoreAxis} />
      {axis.ticks.map((t) => (
        <text key={t.label} x={xOf(t.at)} y={H - M.bottom + 16} textAnchor="middle">
          {t.label}
        </text>
      ))}
      {trials.map((t) => (
        <circle key={t.uuid} className={`dot${t.uuid === best ? " best" : ""}`} r={t.uuid === best ? 6 : 4} cx={xOf(axis.position(t.params[param]))} cy={yOf(scoreAxis.position(t.objective))}>
          <title>
            {t.name}: {String(t.params[param])} → {t.objective}
          </title>
        </circle>
      ))}
    </>
  );
}
