/** The annotation queue pages: the queues, and one queue's review screen. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const queuesRoutes: RouteObject[] = [
  { path: "annotation-queues", lazy: page(() => import("./QueuesPage")) },
  { path: "annotation-queues/:queueId", lazy: page(() => import("./ReviewPage")) },
];
