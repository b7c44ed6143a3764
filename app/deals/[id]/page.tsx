import type { Metadata } from "next";
import { DealPage } from "@/components/deals/deal-page";
import { DemoGate } from "@/components/demo/demo-gate";
import { toUserJson } from "@/lib/auth/users";
import { env } from "@/lib/env";
import { loadDealPage } from "./load-deal-page";

export const metadata: Metadata = { title: "Deal" };

// /deals/:id – one deal, for its brand, its creator, or a creator who may take it, rendered
// on the server with the deal (the first HTML holds it). A deal that does not exist, or that
// the caller may not see, is a real 404; a visitor signed out is asked to sign in.
export default async function DealRoute({ params }: { params: Promise<{ id: string }> }) {
  const page = await loadDealPage(params, (id) => `/deals/${id}`);
  if ("prompt" in page) return page.prompt;
  return (
    <DemoGate>
      <DealPage
        initial={page.deal}
        user={toUserJson(page.user)}
        onrampTemplate={env().ONRAMP_URL ?? null}
      />
    </DemoGate>
  );
}
