/**
 * Notification preferences (GET/PUT /signals/preferences), the default webhook URL and secret (stored only:
 * never returned, never logged, never called), and POST /signals/test.
 *
 * The spec's request schema accepts PUT's leniency (spec/DECISIONS.md 23): a non-array `fields` selects the
 * default list, and unknown or non-string items are ignored here.
 */
import type { components } from "../../../generated/schema.js";
import type { Area } from "../contract/context.js";
import { operationError, type Answering, type OperationsWith } from "../contract/errors.js";
import { defineSlice, type OrgState } from "../contract/state.js";
import type { SpecIndex } from "../contract/spec.js";
import { enumValues, propertyBound, propertyDefault } from "../contract/spec-values.js";
import type { EventField } from "./records.js";

type StoredPreferences = components["schemas"]["StoredNotificationPreferences"];

export interface PreferencesRecord {
  /** null until the first PUT (GET answers the defaults). */
  saved: Omit<StoredPreferences, "org_id"> | null;
  webhook_url: string | null;
  webhook_secret: string | null;
}

export const preferencesSlice = defineSlice<PreferencesRecord>({
  name: "preferences",
  create: () => ({ saved: null, webhook_url: null, webhook_secret: null }),
  save: (p) => p,
  load: (data) => data as PreferencesRecord,
});

/** The preferences when no row is saved: the spec's defaults of the stored shape (NotificationPreferences). */
function defaults(spec: SpecIndex): NonNullable<PreferencesRecord["saved"]> {
  const of = <P extends keyof NonNullable<PreferencesRecord["saved"]>>(property: P) =>
    structuredClone(propertyDefault(spec, "NotificationPreferences", property));
  return {
    fields: of("fields"),
    email_enabled: of("email_enabled"),
    emails: of("emails"),
    slack_enabled: of("slack_enabled"),
    slack_channel_id: of("slack_channel_id"),
    slack_channel_name: of("slack_channel_name"),
  };
}

function preferencesView(org: OrgState, spec: SpecIndex): StoredPreferences {
  return { org_id: org.id, ...(org.get(preferencesSlice).saved ?? defaults(spec)) };
}

export function webhookConfigured(org: OrgState): boolean {
  return org.has(preferencesSlice) && org.get(preferencesSlice).webhook_url !== null;
}

/** Known event fields, de-duplicated, in the given order; 400 when none remains. */
function filterFields(
  req: Answering<OperationsWith<"400", "invalid_request">>,
  values: unknown[],
  known: readonly EventField[],
): EventField[] {
  const out: EventField[] = [];
  for (const v of values)
    if (typeof v === "string" && (known as readonly string[]).includes(v) && !out.includes(v as EventField))
      out.push(v as EventField);
  if (out.length === 0)
    throw operationError(
      req.operationId,
      "400",
      "invalid_request",
      `fields must contain at least one of: ${known.join(", ")}`,
    );
  return out;
}

/** Entries containing @, trimmed and lowercased; the first `max` accepted (the stored list's `maxItems`). */
function filterEmails(values: unknown[], max: number): string[] {
  return values
    .filter((v): v is string => typeof v === "string" && v.includes("@"))
    .map((v) => v.trim().toLowerCase())
    .slice(0, max);
}

/**
 * Trimmed, then at most `max` characters stored ("Trimmed, at most 64 chars"): a longer value is cut, not a
 * 400, which the reference does not list for this operation. An empty value clears the channel.
 */
function channel(value: string, max: number): string | null {
  const t = [...value.trim()].slice(0, max).join("");
  return t === "" ? null : t;
}

export const preferencesArea = {
  name: "preferences",
  handlers: {
    getNotificationPreferences(req, { spec }) {
      return { body: { data: preferencesView(req.org, spec) } };
    },

    updateNotificationPreferences(req, { spec }) {
      const stored = (
        property: "emails" | "slack_channel_id" | "slack_channel_name",
        keyword: "maxItems" | "maxLength",
      ) => propertyBound(spec, "NotificationPreferences", property, keyword);
      const body = req.body;
      const record = req.org.get(preferencesSlice);
      const next = { ...(record.saved ?? defaults(spec)) };
      if ("fields" in body)
        next.fields = Array.isArray(body.fields)
          ? filterFields(req, body.fields, enumValues(spec, "EventField"))
          : defaults(spec).fields;
      if (typeof body.email_enabled === "boolean") next.email_enabled = body.email_enabled;
      if (Array.isArray(body.emails)) next.emails = filterEmails(body.emails, stored("emails", "maxItems"));
      if (typeof body.slack_enabled === "boolean") next.slack_enabled = body.slack_enabled;
      if (typeof body.slack_channel_id === "string")
        next.slack_channel_id = channel(body.slack_channel_id, stored("slack_channel_id", "maxLength"));
      if (typeof body.slack_channel_name === "string")
        next.slack_channel_name = channel(body.slack_channel_name, stored("slack_channel_name", "maxLength"));
      record.saved = next;
      // Webhook settings are written separately: a non-empty value updates, an empty one keeps what is stored.
      const url = typeof body.webhook_url === "string" ? body.webhook_url.trim() : "";
      const secret = typeof body.webhook_secret === "string" ? body.webhook_secret.trim() : "";
      if (url) record.webhook_url = url;
      if (secret) record.webhook_secret = secret;
      return {
        body: { data: { ...preferencesView(req.org, spec), webhook: { configured: record.webhook_url !== null } } },
      };
    },

    sendTestDigest(req, { spec }) {
      // The sandbox delivers nothing. Shape not shown in the reference; the sandbox reports what would be used.
      const p = preferencesView(req.org, spec);
      const email = p.email_enabled && p.emails.length > 0;
      const slack = p.slack_enabled && p.slack_channel_id !== null;
      return {
        body: {
          data: { sent: email || slack, channels: { email: email ? p.emails.length : 0, slack }, fields: p.fields },
        },
      };
    },
  },
} satisfies Area;
