/** A prompt: its versions with labels and what their generations measured, the chosen
 * version's text, its changes from another version, and the generations that used it. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { JsonView } from "../../components/JsonView";
import { ErrorView, Loading } from "../../components/States";
import { formatCost, formatDuration, formatNumber, formatTime } from "../../lib/format";
import { useProject } from "../../lib/params";
import { Generations } from "./Generations";
import { Labels, promptText, type PromptGenerationPage, type PromptVersion } from "./shared";
import { VersionDiff } from "./VersionDiff";

type Usage = PromptGenerationPage["versions"][number];

function VersionRow({ v, usage, selected, onSelect }: { v: PromptVersion; usage?: Usage; selected: boolean; onSelect: () => void }) {
  const scores = Object.entries(usage?.scores ?? {});
  return (
    <tr className={selected ? "selected" : undefined} data-version={v.version} aria-selected={selected}>
      <td>
        <button type="button" className="ghost" onClick={onSelect} aria-label={`Show v${v.version}`}>
          v{v.version}
        </button>
      </td>
      <td>
        <Labels labels={v.labels ?? []} />
      </td>
      <td>{v.commit_message}</td>
      <td>{formatTime(v.created_at)}</td>
      <td data-field="generations">{usage?.generations ?? 0}</td>
      <td>{formatDuration(usage?.latency_p50)}</td>
      <td>{usage ? formatCost(usage.total_cost) : ""}</td>
      <td>{scores.map(([name, mean]) => `${name} ${formatNumber(mean)}`).join(", ")}</td>
    </tr>
  );
}

export default function PromptPage() {
  const { owner, project, base } = useProject();
  const name = useParams()["*"] ?? "";
  const [chosen, setChosen] = useState<number | null>(null);
  const [against, setAgainst] = useState<number | null>(null);
  const versions = useQuery({
    queryKey: ["prompt-versions", owner, project, name],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/prompt-versions/{name}", { params: { path: { owner, project, name } } })),
  });
  const usage = useQuery({
    queryKey: ["prompt-usage", owner, project, name],
    queryFn: () =>
      unwrap(api.GET("/api/v1/{owner}/{project}/prompt-generations/{name}", { params: { path: { owner, project, name }, query: { limit: 1 } } })),
  });
  if (versions.isPending) return <Loading what="Loading the prompt" />;
  if (versions.isError) return <ErrorView error={versions.error} retry={() => void versions.refetch()} />;
  const all = versions.data.versions;
  const shown = all.find((v) => v.version === chosen) ?? all[0];
  const older = all.filter((v) => v.version !== shown.version);
  const compared = older.find((v) => v.version === against) ?? older.find((v) => v.version < shown.version) ?? older[0];
  const figures = new Map((usage.data?.versions ?? []).map((u) => [u.version, u]));
  return (
    <section aria-labelledby="prompt-title" data-prompt-name={name}>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to={`${base}/prompts`}>Prompts</Link> / <span className="mono">{name}</span>
      </nav>
      <h1 id="prompt-title">{name}</h1>
      <p className="muted">
        {shown.type} prompt · {all.length} {all.length === 1 ? "version" : "versions"} · tags {(shown.tags ?? []).join(", ") || "none"}
      </p>
      <table className="grid versions" aria-label="Versions">
        <thead>
          <tr>
            <th>Version</th>
            <th>Labels</th>
            <th>Message</th>
            <th>Created</th>
            <th>Generations</th>
            <th>Latency p50</th>
            <th>Cost</th>
            <th>Scores</th>
          </tr>
        </thead>
        <tbody>
          {all.map((v) => (
            <VersionRow key={v.version} v={v} usage={figures.get(v.version)} selected={v.version === shown.version} onSelect={() => setChosen(v.version)} />
          ))}
        </tbody>
      </table>
      <div className="prompt-body">
        <section aria-label={`Version ${shown.version}`}>
          <h2>v{shown.version}</h2>
          <pre className="prompt-text" data-field="prompt">
            {promptText(shown.prompt)}
          </pre>
          {Object.keys(shown.config ?? {}).length > 0 && <JsonView value={shown.config} />}
        </section>
        <section aria-label="Changes">
          <h2>Changes</h2>
          {compared ? (
            <>
              <label>
                From{" "}
                <select aria-label="Compare with" value={compared.version} onChange={(e) => setAgainst(Number(e.target.value))}>
                  {older.map((v) => (
                    <option key={v.version} value={v.version}>
                      v{v.version}
                    </option>
                  ))}
                </select>{" "}
                to v{shown.version}
              </label>
              <VersionDiff from={compared} to={shown} />
            </>
          ) : (
            <p className="muted">The first version: nothing to compare with.</p>
          )}
        </section>
      </div>
      <h2>Generations that used v{shown.version}</h2>
      <Generations name={name} version={shown.version} />
    </section>
  );
}
