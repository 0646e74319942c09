/** The route's project, and the API path parameters that name it. */
import { useParams } from "react-router";

export function useProject(): { owner: string; project: string; base: string } {
  const { owner = "", project = "" } = useParams();
  return { owner, project, base: `/projects/${owner}/${project}` };
}
