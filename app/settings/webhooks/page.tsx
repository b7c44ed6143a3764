import type { Metadata } from "next";
import { WebhookSettingsPage } from "@/components/webhooks/webhook-settings";

export const metadata: Metadata = { title: "Webhooks" };

export default function Webhooks() {
  return <WebhookSettingsPage />;
}
