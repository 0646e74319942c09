/** What the model registry pages read, each under one query key. */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";

export const modelKeys = {
  models: (owner: string, project: string) => ["models", owner, project] as const,
  model: (owner: string, project: string, model: string) => ["models", owner, project, model] as const,
  versions: (owner: string, project: string, model: string) => ["models", owner, project, model, "versions"] as const,
  lineage: (owner: string, project: string, model: string, version: number) => ["models", owner, project, model, "lineage", version] as const,
};

export function useModels(owner: string, project: string) {
  return useQuery({
    queryKey: modelKeys.models(owner, project),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/models", { params: { path: { owner, project } } })),
  });
}

export function useModel(owner: string, project: string, model: string) {
  return useQuery({
    queryKey: modelKeys.model(owner, project, model),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/models/{model}", { params: { path: { owner, project, model } } })),
  });
}

export function useVersions(owner: string, project: string, model: string) {
  return useQuery({
    queryKey: modelKeys.versions(owner, project, model),
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/models/{model}/versions", { params: { path: { owner, project, model } } })),
  });
}

export function useLineage(owner: string, project: string, model: string, version: number | null) {
  return useQuery({
    queryKey: modelKeys.lineage(owner, project, model, version ?? 0),
    enabled: version !== null,
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/{owner}/{project}/models/{model}/versions/{version}/lineage", {
          params: { path: { owner, project, model, version: version ?? 0 } },
        }),
      ),
  });
}

export function useGates(owner: string, project: string, model: string) {
  return useQuery({
    queryKey: [...modelKeys.model(owner, project, model), "gates"],
    queryFn: () => unwrap(api.GET("/api/v1/{owner}/{project}/models/{model}/gates", { params: { path: { owner, project, model } } })),
  });
}

export function useScores(owner: string, project: string, model: string, version: number) {
  return useQuery({
    queryKey: [...modelKeys.versions(owner, project, model), version, "scores"],
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/{owner}/{project}/models/{model}/versions/{ref}/scores", {
          params: { path: { owner, project, model, ref: String(version) } },
        }),
      ),
  });
}
