import type { RelayStatus } from "@/lib/chain/relay";
import type { MessagePage } from "@/lib/deals/messages";
import type { DealEventJson } from "@/lib/events/events";
import type { EvidenceJson } from "@/lib/verify/evidence/read";

// What app/deals/[id]/page.tsx reads on the server together with the deal, so that the deal
// page's panels render with the HTML instead of each fetching after it (load-deal-seed.ts
// reads it; components/deals/page-seed.tsx hands it to the panels).

export type DealPageSeed = {
  /** The first page of GET /api/deals/:id/events (parties only; null: not read). */
  events: { events: DealEventJson[]; nextCursor: string | null } | null;
  /** GET /api/milestones/:id/evidence?revision=N's items, by evidenceSeedKey(id, N). */
  evidence: Record<string, EvidenceJson[]>;
  /** The first page (30, newest first) of GET /api/deals/:id/messages (parties only; null: not read). */
  messages: MessagePage | null;
  /** GET /api/relay/status (the deployment's configuration, no chain read; the brand only). */
  relay: RelayStatus | null;
};

export const evidenceSeedKey = (milestoneId: string, revision: number) =>
  `${milestoneId}:${revision}`;
