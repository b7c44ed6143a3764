import { notFound } from "next/navigation";
import type { ReactElement } from "react";
import { DemoGate } from "@/components/demo/demo-gate";
import { SignInPrompt } from "@/components/sign-in-prompt";
import type { User } from "@/db/schema";
import { currentUser } from "@/lib/auth/server-user";
import { getDb } from "@/lib/db";
import { dealPageExists, getDeal } from "@/lib/deals/deals";
import { AppError } from "@/lib/errors";
import type { DealDetailJson } from "@/lib/settle/review";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type DealPageLoad =
  | { prompt: ReactElement }
  | { id: string; user: User; deal: DealDetailJson };

/**
 * The opening steps of the pages under /deals/:id, rendered on the server: an id that is no
 * UUID, or a deal that does not exist or that the caller may not see, is a real 404
 * (notFound() throws); a visitor signed out gets the sign-in prompt (`prompt`, coming back
 * to `path`) for any deal that exists; else the caller and the deal with its reviews.
 */
export async function loadDealPage(
  params: Promise<{ id: string }>,
  path: (id: string) => string,
): Promise<DealPageLoad> {
  const { id } = await params;
  if (!uuid.test(id)) notFound();
  const [db, user] = await Promise.all([getDb(), currentUser()]);
  if (!user) {
    if (!(await dealPageExists(db, null, id))) notFound();
    return {
      prompt: (
        <DemoGate>
          <SignInPrompt what="this deal" next={path(id)} />
        </DemoGate>
      ),
    };
  }
  const deal = await getDeal(db, user, id).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  });
  if (!deal) notFound();
  return { id, user, deal };
}
