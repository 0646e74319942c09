/** The model registry of a project: its models, and a model's versions, aliases and lineage. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const modelsRoutes: RouteObject[] = [
  { path: "models", lazy: page(() => import("./ModelsPage")) },
  { path: "models/:model", lazy: page(() => import("./ModelPage")) },
];
