/** A route's page, code-split: its code loads when it is first visited. */
import type { ComponentType } from "react";

export const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });
