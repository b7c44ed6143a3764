import type { Metadata } from "next";
import { InboxPage } from "@/components/notifications/inbox";

export const metadata: Metadata = { title: "Inbox" };

export default function Inbox() {
  return <InboxPage />;
}
