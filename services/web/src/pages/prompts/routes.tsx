/** The prompt pages: the prompts, and a prompt (its name may hold `/` folders). */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const promptsRoutes: RouteObject[] = [
  { path: "prompts", lazy: page(() => import("./PromptsPage")) },
  { path: "prompts/*", lazy: page(() => import("./PromptPage")) },
];
