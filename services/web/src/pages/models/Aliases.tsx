/** Aliases as chips: `production: v3`, or the aliases of one version. */
export function Aliases({ held }: { held: Record<string, number> }) {
  const entries = Object.entries(held).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <span className="muted">–</span>;
  return (
    <span>
      {entries.map(([alias, version]) => (
        <code key={alias} className="chip" data-alias={alias}>
          {alias}: v{version}
        </code>
      ))}
    </span>
  );
}
