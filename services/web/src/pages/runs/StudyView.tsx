/** An adaptive sweep's study: a header line, its optimisation history, its complete trials in
 * parallel coordinates coloured by objective, and its params' importances (all in SVG/HTML). */
import { Link, useNavigate } from "react-router";
import { formatNumber } from "../../lib/format";
import { bestSoFar, colourOf, importanceRows, paramOrder, progressOf, scored, type Study, type StudyTrial } from "./study";
import { axisOf } from "./trials";

const W = 860;
const H = 280;
const M = { top: 16, right: 70, bottom: 40, left: 60 };
/** The strip under the history's plot where trials without a value are marked. */
const STRIP = H - M.bottom + 10;

const yOf = (position: number) => H - M.bottom - position * (H - M.top - M.bottom);

interface Props {
  study: Study;
  /** The project's path (``/projects/owner/name``), for links to trial runs. */
  base: string;
}

export function StudyView({ study, base }: Props) {
  const objective = study.metric ?? "objective";
  const best = study.trials.find((t) => t.number === study.best_trial) ?? null;
  return (
    <div className="study" data-study={study.state} data-kind={study.kind}>
      <p className="study-head">
        <strong>{study.kind}</strong> search · <span data-state={study.state}>{study.state}</span>
        {study.state === "ended" && study.reason ? `: ${study.reason}` : ""} · <span data-progress>{progressOf(study)}</span>
        {study.metric ? ` · ${study.direction} ${study.metric}` : ""}
        {best && (
          <>
            {" "}
            · best: <Link to={`${base}/runs/${best.run_uuid}`}>trial #{best.number}</Link> <span className="mono">({formatNumber(best.value)})</span>
          </>
        )}
      </p>
      {study.approximations.length > 0 && (
        <p className="muted study-note" role="note">
          Approximated by the sampler: {study.approximations.join("; ")}
        </p>
      )}
      <History study={study} objective={objective} base={base} />
      <Parallel study={study} objective={objective} />
      <Importances importances={study.importances} />
    </div>
  );
}

/** A marker of a trial without a plotted value: pruned (a triangle) or failed (a cross). */
function Marker({ trial, x, y }: { trial: StudyTrial; x: number; y: number }) {
  const tip = `trial #${trial.number} ${trial.state}${trial.reason ? `: ${trial.reason}` : ""}`;
  return (
    <g className={`marker ${trial.state}`} data-trial={trial.number} data-state={trial.state}>
      {trial.state === "failed" ? <path d={`M${x - 4},${y - 4}L${x + 4},${y + 4}M${x - 4},${y + 4}L${x + 4},${y - 4}`} /> : <path d={`M${x},${y - 5}L${x + 5},${y + 4}L${x - 5},${y + 4}Z`} />}
      <title>{tip}</title>
    </g>
  );
}

function History({ study, objective, base }: { study: Study; objective: string; base: string }) {
  const navigate = useNavigate();
  const points = scored(study.trials);
  const ended = study.trials.filter((t) => t.state === "pruned" || t.state === "failed");
  const label = "Optimisation history";
  if (points.length === 0 && ended.length === 0) {
    return (
      <section aria-label={label} className="study-history" data-points={0}>
        <h2>Optimisation history</h2>
        <p className="muted">No trial has completed yet.</p>
      </section>
    );
  }
  const numbers = study.trials.map((t) => t.number);
  const first = Math.min(...numbers);
  const last = Math.max(...numbers, study.budget != null ? first + study.budget - 1 : first);
  const xOf = (n: number) => M.left + (last === first ? 0.5 : (n - first) / (last - first)) * (W - M.left - M.right);
  const valueOf = (t: StudyTrial) => (typeof t.value === "number" && Number.isFinite(t.value) ? t.value : null);
  // a pruned trial may have a value (its last intermediate one): on the axis too
  const scoreAxis = axisOf(study.trials.flatMap((t) => (t.state !== "running" && valueOf(t) !== null ? [valueOf(t)] : [])));
  const inPlot = (v: number) => yOf(scoreAxis.position(v));
  const best = points.find((t) => t.number === study.best_trial);
  const dot = (t: StudyTrial & { value: number }) => (
    <circle key={t.number} className={`dot${t === best ? " best" : ""}`} r={t === best ? 6 : 4} cx={xOf(t.number)} cy={inPlot(t.value)} data-trial={t.number} data-state="complete">
      <title>
        trial #{t.number}: {objective} = {formatNumber(t.value)}
        {t === best ? " (best)" : ""}
      </title>
    </circle>
  );
  const steps = bestSoFar(study.trials, study.direction);
  const line = steps.flatMap((s, i) => [...(i ? [`${xOf(s.number)},${inPlot(steps[i - 1].value)}`] : []), `${xOf(s.number)},${inPlot(s.value)}`]);
  if (steps.length) line.push(`${xOf(Math.max(...numbers))},${inPlot(steps[steps.length - 1].value)}`);
  return (
    <section aria-label={label} className="study-history" data-points={points.length} data-pruned={ended.filter((t) => t.state === "pruned").length} data-failed={ended.filter((t) => t.state === "failed").length} data-best-trial={study.best_trial ?? ""}>
      <h2>Optimisation history</h2>
      <svg className="plot" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${objective} by trial, ${points.length} complete trials, best so far as a line`}>
        <line className="axis" x1={M.left} x2={M.left} y1={M.top} y2={H - M.bottom} />
        <line className="axis" x1={M.left} x2={W - M.right} y1={H - M.bottom} y2={H - M.bottom} />
        {scoreAxis.ticks.map((t, i) => (
          <text key={i} x={M.left - 6} y={yOf(t.at) + 4} textAnchor="end">
            {t.label}
          </text>
        ))}
        {[...new Set([first, last])].map((n) => (
          <text key={n} x={xOf(n)} y={H - M.bottom + 28} textAnchor="middle">
            #{n}
          </text>
        ))}
        <text x={W - M.right + 10} y={H - M.bottom + 4} textAnchor="start">
          trial →
        </text>
        <text x={12} y={M.top} transform={`rotate(-90 12 ${M.top})`} textAnchor="end">
          {objective}
        </text>
        {line.length > 0 && <polyline className="best-so-far" points={line.join(" ")} data-best-so-far={steps.length} />}
        {points.filter((t) => t !== best).map(dot)}
        {ended.map((t) => {
          const value = valueOf(t);
          return <Marker key={t.number} trial={t} x={xOf(t.number)} y={value === null ? STRIP : inPlot(value)} />;
        })}
        {best && (
          <a
            href={`${base}/runs/${best.run_uuid}`}
            aria-label={`best trial #${best.number}`}
            data-best-link
            onClick={(e) => {
              e.preventDefault();
              void navigate(`${base}/runs/${best.run_uuid}`);
            }}
          >
            {dot(best)}
          </a>
        )}
      </svg>
      <p className="legend muted">
        <span className="key complete">●</span> complete · <span className="key best-so-far">—</span> best so far · <span className="key pruned">▲</span> pruned · <span className="key failed">✕</span> failed (under the axis
        when it has no value)
      </p>
    </section>
  );
}

function Parallel({ study, objective }: { study: Study; objective: string }) {
  const trials = scored(study.trials);
  const label = "Parallel coordinates";
  if (trials.length === 0) {
    return (
      <section aria-label={label} className="study-parallel" data-lines={0}>
        <h2>Parallel coordinates</h2>
        <p className="muted">No trial has completed yet.</p>
      </section>
    );
  }
  const scoreAxis = axisOf(trials.map((t) => t.value));
  const axes = [
    ...paramOrder(trials, study.importances).map((p) => ({ name: p, axis: axisOf(trials.map((t) => t.params[p])), value: (t: StudyTrial) => t.params[p] })),
    { name: objective, axis: scoreAxis, value: (t: StudyTrial) => t.value },
  ];
  const xOf = (i: number) => M.left + (axes.length < 2 ? 0 : (i * (W - M.left - M.right)) / (axes.length - 1));
  const ordered = [...trials.filter((t) => t.number !== study.best_trial), ...trials.filter((t) => t.number === study.best_trial)];
  const last = axes.length - 1;
  return (
    <section aria-label={label} className="study-parallel" data-lines={trials.length} data-axes={axes.length}>
      <h2>Parallel coordinates</h2>
      <svg className="plot" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${axes.length - 1} params and ${objective}, ${trials.length} complete trials coloured by ${objective}`}>
        <defs>
          <linearGradient id="study-objective" x1="0" x2="0" y1="1" y2="0">
            <stop offset="0" stopColor={colourOf(0, study.direction)} />
            <stop offset="1" stopColor={colourOf(1, study.direction)} />
          </linearGradient>
        </defs>
        {axes.map((a, i) => (
          <g key={a.name} data-axis={a.name}>
            {i === last ? (
              <rect x={xOf(i) - 3} width={6} y={M.top} height={H - M.top - M.bottom} fill="url(#study-objective)" />
            ) : (
              <line className="axis" x1={xOf(i)} x2={xOf(i)} y1={M.top} y2={H - M.bottom} />
            )}
            {a.axis.ticks.map((t, j) => (
              <text key={j} x={xOf(i) + (i === last ? 8 : -6)} y={yOf(t.at) + 4} textAnchor={i === last ? "start" : "end"}>
                {t.label}
              </text>
            ))}
            <text x={xOf(i)} y={H - 14} textAnchor="middle">
              {a.name}
            </text>
          </g>
        ))}
        {ordered.map((t) => (
          <polyline
            key={t.number}
            className={`line${t.number === study.best_trial ? " best" : ""}`}
            stroke={colourOf(scoreAxis.position(t.value), study.direction)}
            points={axes.map((a, i) => `${xOf(i)},${yOf(a.axis.position(a.value(t)))}`).join(" ")}
            data-trial={t.number}
          >
            <title>
              trial #{t.number}: {objective} = {formatNumber(t.value)}
            </title>
          </polyline>
        ))}
      </svg>
    </section>
  );
}

function Importances({ importances }: { importances: Study["importances"] }) {
  const rows = importanceRows(importances);
  return (
    <section aria-label="Param importances" className="study-importances" data-params={rows.length}>
      <h2>Param importances</h2>
      {rows.length === 0 ? (
        <p className="muted">Importances appear once two trials are complete.</p>
      ) : (
        <ol className="importances">
          {rows.map((r) => (
            <li key={r.param} data-param={r.param} data-share={r.share}>
              <span className="name mono">{r.param}</span>
              <span className="bar" aria-hidden="true">
                <span style={{ width: `${r.share * 100}%` }} />
              </span>
              <span className="share mono">{r.percent}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
