import type { Metadata } from "next";
import { WebhookSettingsPage } from "@/components/webhooks/webhook-settings";
import { webhookEventTypes } from "@/lib/webhooks/schemas";

export const metadata: Metadata = { title: "Webhooks" };

export default function Webhooks() {
  return <WebhookSettingsPage eventTypes={webhookEventTypes} />;
}
