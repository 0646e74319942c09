/** One component: its tags, and the chosen one's inputs, outputs and polyaxonfile. */
import { Link, useParams, useSearchParams } from "react-router";
import { parse } from "yaml";
import { ErrorView, Loading } from "../../components/States";
import { formatTime } from "../../lib/format";
import "./hub.css";
import { useComponent, useVersions } from "./queries";

/** An input or output as the polyaxonfile declares it. */
export interface Io {
  name: string;
  type?: string;
  value?: unknown;
  isOptional?: boolean;
  description?: string;
}

/** The inputs and outputs the YAML declares (none when it cannot be read). */
export function ioOf(content: string): { inputs: Io[]; outputs: Io[] } {
  let doc: unknown;
  try {
    doc = parse(content);
  } catch {
    return { inputs: [], outputs: [] };
  }
  const list = (key: string): Io[] => {
    const found = doc && typeof doc === "object" ? (doc as Record<string, unknown>)[key] : undefined;
    return Array.isArray(found) ? found.filter((io): io is Io => typeof io?.name === "string") : [];
  };
  return { inputs: list("inputs"), outputs: list("outputs") };
}

function IoTable({ label, items }: { label: string; items: Io[] }) {
  if (items.length === 0) return <p className="muted">No {label.toLowerCase()}.</p>;
  return (
    <table className="grid" aria-label={label}>
      <thead>
        <tr>
          <th>Name</th>
          <th>Type</th>
          <th>Default</th>
          <th>Description</th>
        </tr>
      </thead>
      <tbody>
        {items.map((io) => (
          <tr key={io.name}>
            <td>
              <code>{io.name}</code>{" "}
              {io.isOptional !== true && io.value === undefined && <span className="muted">required</span>}
            </td>
            <td>{io.type ?? <span className="muted">any</span>}</td>
            <td>{io.value === undefined ? <span className="muted">–</span> : <code>{JSON.stringify(io.value)}</code>}</td>
            <td>{io.description ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ComponentPage() {
  const { owner = "", name = "" } = useParams();
  const [search] = useSearchParams();
  const tag = search.get("tag");
  const ref = `${owner}/${name}${tag ? `:${tag}` : ""}`;
  const versions = useVersions(owner, name);
  const component = useComponent(ref);
  if (component.isPending) return <Loading what={`Loading ${ref}`} />;
  if (component.isError) return <ErrorView error={component.error} retry={() => void component.refetch()} />;
  const shown = component.data;
  const { inputs, outputs } = ioOf(shown.content);
  return (
    <section>
      <p>
        <Link to="/hub">Component hub</Link>
      </p>
      <h1>
        {shown.owner}/{shown.name}:{shown.tag}
      </h1>
      {shown.description && <p>{shown.description}</p>}
      <p className="muted">
        {shown.builtin ? "Built-in, read-only." : `Pushed ${formatTime(shown.pushed_at)}.`} Use it with{" "}
        <code>
          hubRef: {shown.owner}/{shown.name}:{shown.tag}
        </code>
      </p>
      <nav aria-label="Tags" className="tags">
        {(versions.data?.components ?? []).map((v) => (
          <Link key={v.tag} to={`/hub/${owner}/${name}?tag=${encodeURIComponent(v.tag)}`} className="tag" aria-current={v.tag === shown.tag ? "page" : undefined}>
            {v.tag}
            {v.latest && v.tag !== "latest" ? " (latest)" : ""}
          </Link>
        ))}
      </nav>
      <h2>Inputs</h2>
      <IoTable label="Inputs" items={inputs} />
      <h2>Outputs</h2>
      <IoTable label="Outputs" items={outputs} />
      <h2>Polyaxonfile</h2>
      <pre className="text" aria-label="Component YAML">
        {shown.content}
      </pre>
    </section>
  );
}
