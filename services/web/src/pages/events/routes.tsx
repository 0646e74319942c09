/** The events pages of a project: webhooks, connections, automations, alerts, model prices, API keys. */
import type { RouteObject } from "react-router";
import { page } from "../../lib/lazy";

export const eventsRoutes: RouteObject[] = [
  { path: "webhooks", lazy: page(() => import("./WebhooksPage")) },
  { path: "webhooks/:webhookId", lazy: page(() => import("./WebhookPage")) },
  { path: "connections", lazy: page(() => import("./ConnectionsPage")) },
  { path: "connections/:name", lazy: page(() => import("./ConnectionPage")) },
  { path: "automations", lazy: page(() => import("./AutomationsPage")) },
  { path: "automations/:automationId", lazy: page(() => import("./AutomationPage")) },
  { path: "alerts", lazy: page(() => import("./AlertsPage")) },
  { path: "llm-models", lazy: page(() => import("./ModelPricesPage")) },
  { path: "api-keys", lazy: page(() => import("./ApiKeysPage")) },
];
