/** The controls every metric chart of a page shares: x by step or time, smoothing, log y,
 * and the zoom (a step range) with its reset. */
import { useId, useState } from "react";
import type { XAxis } from "../../lib/series";

export interface ChartSettings {
  x: XAxis;
  smoothing: number;
  logY: boolean;
  /** The steps zoomed into, ``null`` for all of them. */
  range: [number, number] | null;
}

export function useChartSettings(): [ChartSettings, (change: Partial<ChartSettings>) => void] {
  const [settings, setSettings] = useState<ChartSettings>({ x: "step", smoothing: 0, logY: false, range: null });
  return [settings, (change) => setSettings((current) => ({ ...current, ...change }))];
}

export function ChartControls({ settings, onChange }: { settings: ChartSettings; onChange: (change: Partial<ChartSettings>) => void }) {
  const smoothing = useId();
  return (
    <div className="toolbar chart-controls" role="group" aria-label="Chart settings">
      <label>
        X axis
        <select value={settings.x} onChange={(e) => onChange({ x: e.target.value as XAxis })} aria-label="X axis">
          <option value="step">step</option>
          <option value="time">time (relative)</option>
        </select>
      </label>
      <label htmlFor={smoothing}>
        Smoothing
        <input
          id={smoothing}
          type="range"
          min={0}
          max={0.99}
          step={0.01}
          value={settings.smoothing}
          onChange={(e) => onChange({ smoothing: Number(e.target.value) })}
        />
        <output className="mono">{settings.smoothing.toFixed(2)}</output>
      </label>
      <label>
        <input type="checkbox" checked={settings.logY} onChange={(e) => onChange({ logY: e.target.checked })} />
        Log scale
      </label>
      {settings.range ? (
        <>
          <span className="muted" data-zoom={`${settings.range[0]}-${settings.range[1]}`}>
            Steps {settings.range[0].toLocaleString()}–{settings.range[1].toLocaleString()}
          </span>
          <button type="button" onClick={() => onChange({ range: null })}>
            Reset zoom
          </button>
        </>
      ) : (
        <span className="muted">Drag across a chart to zoom in.</span>
      )}
    </div>
  );
}
