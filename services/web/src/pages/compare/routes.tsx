/** Runs compared side by side: /projects/:owner/:project/compare?runs=<uuid>,<uuid>. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const compareRoutes: RouteObject[] = [{ path: "compare", lazy: page(() => import("./ComparePage")) }];
