/** The component hub: every component with its versions, and one component's page. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const hubRoutes: RouteObject[] = [
  { path: "hub", lazy: page(() => import("./HubPage")) },
  { path: "hub/:owner/:name", lazy: page(() => import("./ComponentPage")) },
];
