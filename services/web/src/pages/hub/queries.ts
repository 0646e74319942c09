/** What the hub pages read: the versions (all, or one component's) and the YAML of one. */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

export type Version = components["schemas"]["HubComponentInfo"];

/** A component and its versions, newest push first. */
export interface Component {
  owner: string;
  name: string;
  builtin: boolean;
  versions: Version[];
}

/** The versions grouped by component, in the order the api lists them. */
export function byComponent(versions: Version[]): Component[] {
  const found = new Map<string, Component>();
  for (const v of versions) {
    const key = `${v.owner}/${v.name}`;
    const entry = found.get(key) ?? { owner: v.owner, name: v.name, builtin: v.builtin, versions: [] };
    entry.versions.push(v);
    found.set(key, entry);
  }
  return [...found.values()];
}

/** The version a component's page shows by default: its latest. */
export function latestOf(component: Component): Version | undefined {
  return component.versions.find((v) => v.latest) ?? component.versions[0];
}

export function useVersions(owner?: string, name?: string) {
  return useQuery({
    queryKey: ["hub", owner ?? null, name ?? null],
    queryFn: () => unwrap(api.GET("/api/v1/hub/components", { params: { query: { owner, name } } })),
  });
}

export function useComponent(ref: string) {
  return useQuery({
    queryKey: ["hub-component", ref],
    queryFn: () => unwrap(api.GET("/api/v1/hub/resolve", { params: { query: { ref } } })),
  });
}
