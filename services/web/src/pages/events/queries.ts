/** The lists the events pages read, each under one query key per project. */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { projectPath } from "./shared";

export const keys = {
  webhooks: (owner: string, project: string) => ["webhooks", owner, project] as const,
  connections: (owner: string, project: string) => ["connections", owner, project] as const,
  automations: (owner: string, project: string) => ["automations", owner, project] as const,
  alerts: (owner: string, project: string) => ["alerts", owner, project] as const,
  alertRoutes: (owner: string, project: string) => ["alert-routes", owner, project] as const,
  models: (owner: string, project: string) => ["llm-models", owner, project] as const,
  apiKeys: (owner: string, project: string) => ["api-keys", owner, project] as const,
};

export function useWebhooks(owner: string, project: string) {
  return useQuery({
    queryKey: keys.webhooks(owner, project),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/webhooks", projectPath(owner, project))),
  });
}

export function useConnections(owner: string, project: string) {
  return useQuery({
    queryKey: keys.connections(owner, project),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/connections", projectPath(owner, project))),
  });
}

export function useAutomations(owner: string, project: string) {
  return useQuery({
    queryKey: keys.automations(owner, project),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/automations", projectPath(owner, project))),
  });
}
