/** Render a component inside the providers every page has (queries, router). */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { createMemoryRouter, MemoryRouter, type RouteObject, RouterProvider } from "react-router";
import { Loading } from "../components/States";

function queryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

export function renderPage(ui: ReactElement, path = "/") {
  const client = queryClient();
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Render top-level routes (lazy pages included) at `path`, e.g. /hub. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const client = queryClient();
  const router = createMemoryRouter([{ path: "/", children: routes, HydrateFallback: Loading }], { initialEntries: [path] });
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/** Render a project's routes (lazy pages included) at `path`, e.g. /projects/acme/demo/webhooks. */
export function renderProjectRoutes(routes: RouteObject[], path: string) {
  const client = queryClient();
  const router = createMemoryRouter([{ path: "/projects/:owner/:project", children: routes, HydrateFallback: Loading }], { initialEntries: [path] });
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}
