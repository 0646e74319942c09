/** Every page, code-split: a page's code loads when it is first visited. */
import type { RouteObject } from "react-router";
import { Layout } from "./components/Layout";
import { RouteError } from "./components/RouteError";
import { page } from "./lib/lazy";
import { membersRoutes, usersRoutes } from "./pages/access/routes";
import { compareRoutes } from "./pages/compare/routes";
import { eventsRoutes } from "./pages/events/routes";
import { governanceRoutes, orgRoutes } from "./pages/governance/routes";
import { modelsRoutes } from "./pages/models/routes";
import { hubRoutes } from "./pages/hub/routes";
import { promptsRoutes } from "./pages/prompts/routes";
import { datasetsRoutes } from "./pages/datasets/routes";
import { evalsRoutes } from "./pages/evals/routes";
import { queuesRoutes } from "./pages/queues/routes";
import { runsRoutes } from "./pages/runs/routes";
import { schedulesRoutes } from "./pages/schedules/routes";
import { tracesRoutes } from "./pages/traces/routes";

/** The pages under /projects/:owner/:project. Each area adds its own. */
export const projectRoutes: RouteObject[] = [...runsRoutes, ...schedulesRoutes, ...compareRoutes, ...modelsRoutes, ...tracesRoutes, ...promptsRoutes, ...datasetsRoutes, ...evalsRoutes, ...queuesRoutes, ...eventsRoutes, ...membersRoutes, ...governanceRoutes];

export const routes: RouteObject[] = [
  {
    path: "/",
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: page(() => import("./pages/ProjectsPage")) },
      { path: "projects/:owner/:project", children: projectRoutes },
      ...hubRoutes,
      ...usersRoutes,
      ...orgRoutes,
      { path: "*", lazy: page(() => import("./pages/NotFoundPage")) },
    ],
  },
];
