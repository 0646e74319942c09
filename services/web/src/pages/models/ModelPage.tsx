/** A registered model: its versions with their aliases and state, and for one of them its
 * evaluation scores against the aliases' gates and its lineage (the dataset versions read,
 * the runs with their params and metrics, the version). */
import { useState } from "react";
import { Link, useParams } from "react-router";
import type { components } from "../../api/schema";
import { ErrorView, Loading } from "../../components/States";
import { formatBytes, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { Aliases } from "./Aliases";
import { Evaluations } from "./Evaluations";
import { LineageView } from "./LineageView";
import { useModel, useVersions } from "./queries";

type ModelVersion = components["schemas"]["ModelVersion"];

function Versions({ versions, selected, select }: { versions: ModelVersion[]; selected: number | null; select: (v: number) => void }) {
  const { base } = useProject();
  return (
    <table className="grid" aria-label="Versions">
      <thead>
        <tr>
          <th>Version</th>
          <th>Aliases</th>
          <th>State</th>
          <th>Run</th>
          <th>Artifact</th>
          <th>Size</th>
          <th>sha256</th>
          <th>Created</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {versions.map((v) => (
          <tr key={v.version} data-version={v.version} className={v.version === selected ? "selected" : undefined}>
            <td>v{v.version}</td>
            <td>{v.aliases.length ? v.aliases.map((a) => <code key={a} className="chip">{a}</code>) : <span className="muted">–</span>}</td>
            <td>{v.archived ? <span className="muted">archived</span> : "active"}</td>
            <td>
              <Link to={`${base}/runs/${v.run_uuid}`}>{v.run_uuid.slice(0, 8)}</Link>
            </td>
            <td>
              <code>{v.artifact}</code>
            </td>
            <td>{formatBytes(v.size)}</td>
            <td>
              <code title={v.sha256}>{v.sha256.slice(0, 12)}</code>
            </td>
            <td>{formatTime(v.created_at)}</td>
            <td>
              <button type="button" className="ghost" onClick={() => select(v.version)} aria-pressed={v.version === selected}>
                Lineage
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ModelPage() {
  const { owner, project } = useProject();
  const { model: name = "" } = useParams();
  const model = useModel(owner, project, name);
  const versions = useVersions(owner, project, name);
  const [chosen, setChosen] = useState<number | null>(null);
  if (model.isPending || versions.isPending) return <Loading what="Loading the model" />;
  if (model.isError) return <ErrorView error={model.error} retry={() => void model.refetch()} />;
  if (versions.isError) return <ErrorView error={versions.error} retry={() => void versions.refetch()} />;
  const rows = versions.data.versions;
  const selected = chosen ?? model.data.aliases.production ?? model.data.latest_version ?? null;
  return (
    <section>
      <h1>{model.data.name}</h1>
      {model.data.description && <p className="muted">{model.data.description}</p>}
      <section className="panel" aria-label="Aliases">
        <h2>Aliases</h2>
        <Aliases held={model.data.aliases} />
        {model.data.protected_aliases.length > 0 && (
          <p className="muted">Protected (move on approval): {model.data.protected_aliases.join(", ")}</p>
        )}
      </section>
      <section className="panel" aria-label="Model versions">
        <h2>Versions</h2>
        <Versions versions={rows} selected={selected} select={setChosen} />
      </section>
      {selected !== null && <Evaluations model={name} version={selected} />}
      {selected !== null && <LineageView model={name} version={selected} />}
    </section>
  );
}
