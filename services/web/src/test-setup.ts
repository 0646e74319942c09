import "@testing-library/jest-dom/vitest";

// jsdom has no ResizeObserver: charts and the graph view observe their box with it.
if (!("ResizeObserver" in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
