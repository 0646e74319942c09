/** A route's `lazy`: the page's code loads when it is first visited. */
import type { ComponentType } from "react";

export const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });
