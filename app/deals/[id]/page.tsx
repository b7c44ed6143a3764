import type { Metadata } from "next";
import { DealPage } from "@/components/deals/deal-page";
import { DealPageSeedProvider } from "@/components/deals/page-seed";
import { DemoGate } from "@/components/demo/demo-gate";
import { toUserJson } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { loadDealPage } from "./load-deal-page";
import { loadDealSeed } from "./load-deal-seed";

export const metadata: Metadata = { title: "Deal" };

// /deals/:id – one deal, for its brand, its creator, or a creator who may take it, rendered
// on the server with the deal; its panels' data streams in behind it. A deal that does not exist, or that
// the caller may not see, is a real 404; a visitor signed out is asked to sign in.
export default async function DealRoute({ params }: { params: Promise<{ id: string }> }) {
  const page = await loadDealPage(params, (id) => `/deals/${id}`);
  if ("prompt" in page) return page.prompt;
  // The panels' data (activity, evidence, messages, funding terms, reputation) is started
  // here and streamed with the HTML, not awaited: the title and the milestones go out first,
  // each panel follows as its part arrives (Suspense), and the panels fetch only to update.
  const seed = loadDealSeed(await getDb(), page.user, page.deal);
  return (
    <DemoGate>
      <DealPageSeedProvider seed={seed}>
        <DealPage
          initial={page.deal}
          user={toUserJson(page.user)}
          onrampTemplate={env().ONRAMP_URL ?? null}
        />
      </DealPageSeedProvider>
    </DemoGate>
  );
}
