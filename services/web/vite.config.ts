/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** Pages whose code index.html may fetch at once for a deep link (see its early script),
 * by name: the source modules of their routes. */
const EARLY_PAGES: Record<string, string[]> = {
  metrics: ["src/pages/runs/RunPage.tsx", "src/pages/runs/MetricsTab.tsx"],
};

/** Writes into index.html the built files of each early page (its chunks, what they import
 * and their stylesheets, the app's own entry aside), as `window.axonalPreloads`. */
function earlyPages(pages: Record<string, string[]>): Plugin {
  return {
    name: "axonal-early-pages",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        if (!bundle) return html;
        const files: Record<string, string[]> = {};
        for (const [name, modules] of Object.entries(pages)) {
          const found = new Set<string>();
          const visit = (fileName: string) => {
            const chunk = bundle[fileName];
            if (found.has(fileName) || !chunk || chunk.type !== "chunk" || chunk.isEntry) return;
            found.add(fileName);
            chunk.viteMetadata?.importedCss.forEach((css) => found.add(css));
            chunk.imports.forEach(visit);
          };
          for (const chunk of Object.values(bundle)) {
            if (chunk.type === "chunk" && modules.some((m) => chunk.facadeModuleId?.endsWith(m))) visit(chunk.fileName);
          }
          files[name] = [...found];
        }
        return [{ tag: "script", children: `window.axonalPreloads = ${JSON.stringify(files)};`, injectTo: "head-prepend" }];
      },
    },
  };
}

// The api serves the build at "/"; in development, `npm run dev` proxies the API to it.
const api = process.env.AXONAL_API_URL ?? "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [react(), earlyPages(EARLY_PAGES)],
  build: { outDir: "dist", sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { proxy: { "/api": api, "/healthz": api } },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["src/test-setup.ts"],
    css: false,
  },
});
