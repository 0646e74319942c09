/** Access: a project's members, and (superusers) users and service accounts with their tokens. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const membersRoutes: RouteObject[] = [{ path: "members", lazy: page(() => import("./MembersPage")) }];

export const usersRoutes: RouteObject[] = [
  { path: "users", lazy: page(() => import("./UsersPage")) },
  { path: "users/:name", lazy: page(() => import("./PrincipalPage")) },
];
