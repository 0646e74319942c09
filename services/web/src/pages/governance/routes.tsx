/** Governance: a project's data settings and its organization's audit log, and an organization's audit log. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

const audit = page(() => import("./AuditPage"));

export const governanceRoutes: RouteObject[] = [
  { path: "data", lazy: page(() => import("./DataPage")) },
  { path: "audit", lazy: audit },
];

export const orgRoutes: RouteObject[] = [{ path: "orgs/:org/audit", lazy: audit }];
