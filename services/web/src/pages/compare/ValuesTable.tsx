/** One kind of value (params, outputs, last metric values) of the runs side by side, rows whose
 * values differ highlighted; ``onlyDifferences`` leaves the others out. */
import type { components } from "../../api/schema";
import { formatValue } from "../../lib/format";

type ComparedRun = components["schemas"]["ComparedRun"];
export type ValueKind = "inputs" | "outputs" | "metrics";

interface Props {
  title: string;
  kind: ValueKind;
  names: string[];
  runs: ComparedRun[];
  labels: Map<string, string>;
  differing: Set<string>;
  onlyDifferences: boolean;
}

export function ValuesTable({ title, kind, names, runs, labels, differing, onlyDifferences }: Props) {
  const rows = names.filter((name) => !onlyDifferences || differing.has(`${kind}.${name}`));
  if (names.length === 0) return null;
  return (
    <>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">Every run has the same {title.toLowerCase()}.</p>
      ) : (
        <table className="grid compare-values" aria-label={title}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              {runs.map((r) => (
                <th key={r.uuid} scope="col">
                  {labels.get(r.uuid)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((name) => {
              const differs = differing.has(`${kind}.${name}`);
              return (
                <tr key={name} className={differs ? "differs" : undefined} data-differs={differs}>
                  <th scope="row" className="mono">
                    {name}
                  </th>
                  {runs.map((r) => (
                    <td key={r.uuid} className="mono">
                      {formatValue(r[kind][name])}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}
