// Regression alerts (a result that dropped): each project's alert rule, the list, the bell's count, and
// acknowledging them (and undoing that).
import { dataEnvelope, EmptyQuerySchema, pageEnvelope } from "@/lib/contract/common";
import {
  AlertAckBodySchema,
  AlertAckSchema,
  AlertCountSchema,
  AlertRuleBodySchema,
  AlertRuleSchema,
  AlertSchema,
  AlertUnackBodySchema,
  AlertUnackSchema,
} from "@/lib/contract/history";
import { AlertListQuerySchema } from "@/lib/contract/alerts";
import { ProjectParamsSchema } from "@/lib/contract/projects";

import { field, projectTarget, text } from "./targets";
import type { OperationSpec } from "./types";

export const alertOperations = {
  projectAlertRule: {
    id: "projectAlertRule",
    method: "GET",
    path: "/api/projects/{project}/alert-rule",
    summary: "When a project's drops make an alert: any drop (the default), only a drop to bad, or never",
    tag: "Alerts",
    permission: "reports:read",
    params: ProjectParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The rule", schema: dataEnvelope(AlertRuleSchema) },
  },
  setProjectAlertRule: {
    id: "setProjectAlertRule",
    method: "POST",
    path: "/api/projects/{project}/alert-rule",
    summary: "Set when a project's drops make an alert",
    tag: "Alerts",
    permission: "projects:write",
    params: ProjectParamsSchema,
    query: EmptyQuerySchema,
    body: AlertRuleBodySchema,
    success: { status: 200, description: "The rule", schema: dataEnvelope(AlertRuleSchema) },
    audit: {
      action: "project.alert_rule_update",
      target: ({ params }) => projectTarget(params.project),
      detail: ({ body }) => ({ rule: text(body.rule) }),
    },
  },
  listAlerts: {
    id: "listAlerts",
    method: "GET",
    path: "/api/alerts",
    summary:
      "Regression alerts, newest first: unread (default), acknowledged or all, by project and by the result dropped to",
    tag: "Alerts",
    permission: "reports:read",
    query: AlertListQuerySchema,
    success: { status: 200, description: "One page of alerts", schema: pageEnvelope(AlertSchema) },
  },
  alertCount: {
    id: "alertCount",
    method: "GET",
    path: "/api/alerts/count",
    summary: "How many alerts are unread (the bell)",
    tag: "Alerts",
    permission: "reports:read",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The count", schema: dataEnvelope(AlertCountSchema) },
  },
  acknowledgeAlerts: {
    id: "acknowledgeAlerts",
    method: "POST",
    path: "/api/alerts/acknowledge",
    summary: "Acknowledge alerts by id, or every unread one",
    tag: "Alerts",
    permission: "reports:read",
    query: EmptyQuerySchema,
    body: AlertAckBodySchema,
    success: { status: 200, description: "How many were acknowledged now", schema: dataEnvelope(AlertAckSchema) },
    audit: {
      action: "alert.acknowledge",
      detail: ({ body, data }) => ({ all: body.all === true, count: Number(field(data, "acknowledged") ?? 0) }),
    },
  },
  unacknowledgeAlerts: {
    id: "unacknowledgeAlerts",
    method: "POST",
    path: "/api/alerts/unacknowledge",
    summary: "Undo one of your acknowledgements: the alerts it acknowledged are unread again",
    tag: "Alerts",
    permission: "reports:read",
    query: EmptyQuerySchema,
    body: AlertUnackBodySchema,
    success: { status: 200, description: "How many are unread again", schema: dataEnvelope(AlertUnackSchema) },
    audit: {
      action: "alert.unacknowledge",
      detail: ({ body, data }) => ({
        acknowledged_at: text(body.acknowledged_at),
        count: Number(field(data, "unread") ?? 0),
      }),
    },
  },
} as const satisfies Record<string, OperationSpec>;
