/** The dataset pages: the datasets, a dataset (its name may hold `/` folders), runs compared. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const datasetsRoutes: RouteObject[] = [
  { path: "datasets", lazy: page(() => import("./DatasetsPage")) },
  { path: "datasets/*", lazy: page(() => import("./DatasetPage")) },
  { path: "experiments/compare", lazy: page(() => import("./ComparePage")) },
];
