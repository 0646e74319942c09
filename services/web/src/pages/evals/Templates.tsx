/** The project's evaluator templates: an LLM judge's prompt (inline or from the registry), or
 * Python code run as a job under its runtime's limits, and the score each writes. */
import type { components } from "../../api/schema";
import { ErrorView, Loading } from "../../components/States";
import { useProject } from "../../lib/params";
import { useTemplates } from "./queries";

type Template = components["schemas"]["EvalTemplate"];
type Runtime = components["schemas"]["CodeRuntime"];

/** A code evaluator's interpreter and limits: `python3 · 120 s · 1 cpu · 1Gi`. */
export function limits(runtime: Runtime): string {
  return `${runtime.python} · ${runtime.timeout_seconds} s · ${runtime.cpu} cpu · ${runtime.memory}`;
}

function Kind({ template }: { template: Template }) {
  if (template.kind === "code") {
    return (
      <>
        code{template.runtime && <span className="muted"> · {limits(template.runtime)}</span>}
        <details>
          <summary>source</summary>
          <pre>{template.code}</pre>
          {template.runtime && <p className="muted">in a container: image {template.runtime.image}</p>}
        </details>
      </>
    );
  }
  if (template.prompt_name) {
    return (
      <>
        LLM · registry prompt <code>{template.prompt_name}</code> <span className="muted">({template.prompt_label})</span>
      </>
    );
  }
  return (
    <>
      LLM · inline prompt
      <details>
        <summary>prompt</summary>
        <pre>{template.prompt}</pre>
      </details>
    </>
  );
}

export function Templates() {
  const { owner, project } = useProject();
  const templates = useTemplates(owner, project);
  return (
    <section className="panel" aria-labelledby="templates-title">
      <h2 id="templates-title">Templates</h2>
      {templates.isPending ? (
        <Loading what="Loading evaluator templates" />
      ) : templates.isError ? (
        <ErrorView error={templates.error} retry={() => void templates.refetch()} />
      ) : templates.data.data.length === 0 ? (
        <p className="muted">
          No templates yet: <code>axonal evals templates create helpful --prompt "…" -p {`${owner}/${project}`}</code>, or{" "}
          <code>--code-file evaluator.py</code> for Python defining <code>evaluate(**variables)</code>.
        </p>
      ) : (
        <table className="grid" aria-label="Evaluator templates">
          <thead>
            <tr>
              <th>Name</th>
              <th>Kind</th>
              <th>Score</th>
            </tr>
          </thead>
          <tbody>
            {templates.data.data.map((template) => (
              <tr key={template.id} data-template={template.name}>
                <td>
                  {template.name}
                  {template.description && <div className="muted">{template.description}</div>}
                </td>
                <td>
                  <Kind template={template} />
                </td>
                <td>{template.score_name}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
