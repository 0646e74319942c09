/** The schedules page of a project (a schedule's own page is its run's). */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const schedulesRoutes: RouteObject[] = [{ path: "schedules", lazy: page(() => import("./SchedulesPage")) }];
