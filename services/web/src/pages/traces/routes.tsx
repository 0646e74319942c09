/** The LLM observability pages: traces, a trace, sessions, a session, users and scores. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const tracesRoutes: RouteObject[] = [
  { path: "traces", lazy: page(() => import("./TracesPage")) },
  { path: "traces/:traceId", lazy: page(() => import("./TracePage")) },
  { path: "sessions", lazy: page(() => import("./SessionsPage")) },
  { path: "sessions/:sessionId", lazy: page(() => import("./SessionPage")) },
  { path: "users", lazy: page(() => import("./UsersPage")) },
  { path: "scores", lazy: page(() => import("./ScoresPage")) },
];
