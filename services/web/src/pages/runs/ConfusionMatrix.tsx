/** A confusion matrix as a heat-map table: row `y_labels[i]`, column `x_labels[j]`. */

export interface Confusion {
  x_labels: string[];
  y_labels: string[];
  z: number[][];
}

export function ConfusionMatrix({ matrix, label }: { matrix: Confusion; label: string }) {
  const top = Math.max(1, ...matrix.z.flat());
  return (
    <table className="confusion" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">
            <span className="muted">true ↓ / predicted →</span>
          </th>
          {matrix.x_labels.map((x) => (
            <th key={x} scope="col">
              {x}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {matrix.z.map((row, i) => (
          <tr key={matrix.y_labels[i]}>
            <th scope="row">{matrix.y_labels[i]}</th>
            {row.map((value, j) => (
              <td
                key={matrix.x_labels[j]}
                className="num"
                data-value={value}
                style={{ background: `color-mix(in srgb, var(--accent) ${Math.round((value / top) * 85)}%, transparent)` }}
              >
                {value}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
