/** A run at a glance: facts, inputs, outputs, params, tags, statuses and the compiled spec. */
import type { ReactNode } from "react";
import { ErrorView, Loading } from "../../components/States";
import { JsonView } from "../../components/JsonView";
import { formatTime } from "../../lib/format";
import { type Param, paramsOf } from "./params";
import { RunDuration, RunLink, Tags } from "./RunBits";
import { SchedulePanel } from "../schedules/SchedulePanel";
import { SpecYaml } from "./SpecYaml";
import { isFinal } from "../../lib/runStatus";
import type { RunInfo } from "./statuses";
import { StatusTimeline } from "./StatusTimeline";
import { useRun } from "./useRun";

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

const shown = (value: unknown) => (typeof value === "object" && value !== null ? <JsonView value={value} /> : String(value));

function Params({ params }: { params: Param[] }) {
  if (params.length === 0) return <p className="muted">No params.</p>;
  return (
    <table className="grid kv" aria-label="Params">
      <thead>
        <tr>
          <th>Name</th>
          <th>Value</th>
          <th>Type</th>
          <th>Source</th>
        </tr>
      </thead>
      <tbody>
        {params.map((p) => (
          <tr key={`${p.source}-${p.name}`}>
            <th scope="row">{p.name}</th>
            <td>{shown(p.value)}</td>
            <td>{p.type ?? "–"}</td>
            <td>{p.source ?? "–"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Values({ values, none }: { values: Record<string, unknown> | undefined; none: string }) {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return <p className="muted">{none}</p>;
  return (
    <table className="grid kv">
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{shown(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Facts({ run }: { run: RunInfo }) {
  const rows: [string, ReactNode][] = [
    ["Created", formatTime(run.created_at)],
    ["Started", formatTime(run.started_at)],
    ["Finished", formatTime(run.finished_at)],
    ["Duration", <RunDuration run={run} />],
    ["Queue", run.queue ?? "–"],
    ["Agent", run.agent ?? (run.managed === false ? "tracked from the SDK" : "–")],
    ["Attempt", run.attempt],
  ];
  if (run.pipeline_uuid) rows.push(["Pipeline", <RunLink uuid={run.pipeline_uuid} />]);
  if (run.original_uuid) rows.push(["Restart of", <RunLink uuid={run.original_uuid} />]);
  if (run.cache_hit_of) rows.push(["Cached from", <RunLink uuid={run.cache_hit_of} />]);
  for (const [port, url] of Object.entries(run.endpoints ?? {})) {
    // A service's URL, by the port its file declares: a link while it runs.
    const shown = run.status === "running" ? <a href={url} target="_blank" rel="noreferrer">{url}</a> : url;
    rows.push([`Service (port ${port})`, shown]);
  }
  return (
    <dl className="facts">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function OverviewTab() {
  const run = useRun();
  if (run.isPending) return <Loading />;
  if (run.isError) return <ErrorView error={run.error} />;
  const data = run.data;
  return (
    <div className="overview">
      {data.kind === "schedule" && <SchedulePanel run={data} />}
      <Panel title="Details">
        {data.description && <p>{data.description}</p>}
        <Facts run={data} />
      </Panel>
      <Panel title="Tags">
        <Tags tags={data.tags ?? []} />
      </Panel>
      <Panel title="Inputs">
        <Values values={data.inputs} none="No inputs." />
      </Panel>
      <Panel title="Outputs">
        <Values values={data.outputs} none="No outputs yet." />
      </Panel>
      <Panel title="Params">
        <Params params={paramsOf(data.compiled)} />
      </Panel>
      <Panel title="Status timeline">
        <StatusTimeline uuid={data.uuid} live={!isFinal(data.status)} />
      </Panel>
      <Panel title="Compiled spec">
        {data.compiled ? <SpecYaml spec={data.compiled} /> : <p className="muted">This run has no compiled spec (it was tracked from the SDK).</p>}
      </Panel>
    </div>
  );
}
