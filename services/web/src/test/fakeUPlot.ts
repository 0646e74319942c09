/** FakeUPlot: a test double of uPlot (jsdom has no canvas). It keeps the options and data each
 * chart was drawn with, and lets a test drag a selection across it. */
import type uPlot from "uplot";

export const drawn: FakeUPlot[] = [];

export class FakeUPlot {
  select = { left: 0, width: 0, top: 0, height: 0 };
  constructor(
    readonly opts: uPlot.Options,
    readonly data: uPlot.AlignedData,
    readonly target: HTMLElement,
  ) {
    drawn.push(this);
  }

  posToVal(position: number): number {
    return position; // one pixel is one unit of x
  }

  setSize(): void {}

  destroy(): void {
    drawn.splice(drawn.indexOf(this), 1);
  }

  /** A selection from x ``lo`` to ``hi``, as a drag makes it. */
  drag(lo: number, hi: number): void {
    this.select = { left: lo, width: hi - lo, top: 0, height: 10 };
    for (const hook of [this.opts.hooks?.setSelect ?? []].flat()) hook?.(this as unknown as uPlot);
  }

  static join(tables: uPlot.AlignedData[]): uPlot.AlignedData {
    const xs = [...new Set(tables.flatMap((t) => [...t[0]]))].sort((a, b) => a - b);
    const ys = tables.map((t) => {
      const at = new Map([...t[0]].map((x, i) => [x, t[1][i]]));
      return xs.map((x) => at.get(x) ?? null);
    });
    return [xs, ...ys];
  }
}
