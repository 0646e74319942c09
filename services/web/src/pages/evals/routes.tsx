/** The evaluators pages: online rules with their jobs. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const evalsRoutes: RouteObject[] = [{ path: "evaluators", lazy: page(() => import("./EvaluatorsPage")) }];
