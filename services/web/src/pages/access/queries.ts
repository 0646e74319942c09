/** The access pages' query keys and the api calls they share. */
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

export type Member = components["schemas"]["Member"];
export type RoleName = Member["role"];

/** Roles from the least to the most; `none` takes away what the organization grants. */
export const ROLES: readonly RoleName[] = ["viewer", "member", "admin", "owner", "none"];

export const keys = {
  members: (owner: string, project: string) => ["members", owner, project] as const,
  principals: () => ["principals"] as const,
  tokens: (name: string) => ["principals", name, "tokens"] as const,
};

/** Grants `role` in the project (null removes the grant); the project's members after it. */
export function grant(owner: string, project: string, name: string, role: RoleName | null) {
  return unwrap(api.PUT("/api/v1/{owner}/{project}/members/{name}", { params: { path: { owner, project, name } }, body: { role } }));
}
