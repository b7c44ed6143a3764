import {
  curlExample,
  type RequestExample,
  requestExample,
  responseExample,
  typescriptExample,
} from "@/lib/api/examples";
import { routeAccess, routeSchemas } from "@/lib/http";
import { type Endpoint, endpoints, openApiDocument, withScopes } from "@/lib/openapi";
import * as authIdentities from "./auth/identities/route";
import * as authMe from "./auth/me/route";
import * as authRole from "./auth/role/route";
import * as authSession from "./auth/session/route";
import * as authWalletNonce from "./auth/wallet/nonce/route";
import * as authWallet from "./auth/wallet/route";
import * as chain from "./chain/route";
import * as cronReconcile from "./cron/reconcile/route";
import * as dealsIdAccept from "./deals/[id]/accept/route";
import * as dealsIdBonusesBonusIdRelease from "./deals/[id]/bonuses/[bonusId]/release/route";
import * as dealsIdBonusesBonusId from "./deals/[id]/bonuses/[bonusId]/route";
import * as dealsIdBonuses from "./deals/[id]/bonuses/route";
import * as dealsIdCancel from "./deals/[id]/cancel/route";
import * as dealsIdEvents from "./deals/[id]/events/route";
import * as dealsIdFundingAuthorization from "./deals/[id]/funding/authorization/route";
import * as dealsIdFundingDeposit from "./deals/[id]/funding/deposit/route";
import * as dealsIdFunding from "./deals/[id]/funding/route";
import * as dealsIdMessagesMessageIdAttachment from "./deals/[id]/messages/[messageId]/attachment/route";
import * as dealsIdMessagesRead from "./deals/[id]/messages/read/route";
import * as dealsIdMessages from "./deals/[id]/messages/route";
import * as dealsIdRefund from "./deals/[id]/refund/route";
import * as dealsId from "./deals/[id]/route";
import * as deals from "./deals/route";
import * as demoEnsureDeals from "./demo/ensure-deals/route";
import * as demoUnlock from "./demo/unlock/route";
import * as events from "./events/route";
import * as faucetDrip from "./faucet/drip/route";
import * as faucetTestUsdc from "./faucet/test-usdc/route";
import * as health from "./health/route";
import * as keysId from "./keys/[id]/route";
import * as keys from "./keys/route";
import * as ledger from "./ledger/route";
import * as ledgerCsv from "./ledger.csv/route";
import * as milestonesIdAppeal from "./milestones/[id]/appeal/route";
import * as milestonesIdDecision from "./milestones/[id]/decision/route";
import * as milestonesIdDeliverable from "./milestones/[id]/deliverable/route";
import * as milestonesIdDraftsDraftidApprove from "./milestones/[id]/drafts/[draftId]/approve/route";
import * as milestonesIdDraftsDraftidMedia from "./milestones/[id]/drafts/[draftId]/media/route";
import * as milestonesIdDraftsDraftidRequestChanges from "./milestones/[id]/drafts/[draftId]/request-changes/route";
import * as milestonesIdDraftsDraftid from "./milestones/[id]/drafts/[draftId]/route";
import * as milestonesIdDrafts from "./milestones/[id]/drafts/route";
import * as milestonesIdEvidence from "./milestones/[id]/evidence/route";
import * as milestonesIdPrecheck from "./milestones/[id]/precheck/route";
import * as milestonesIdRefund from "./milestones/[id]/refund/route";
import * as milestonesIdRequestChanges from "./milestones/[id]/request-changes/route";
import * as milestonesId from "./milestones/[id]/route";
import * as notificationsRead from "./notifications/read/route";
import * as notifications from "./notifications/route";
import * as notificationsUnread from "./notifications/unread/route";
import * as profileHandles from "./profile/handles/route";
import * as profileHandlesVerify from "./profile/handles/verify/route";
import * as profile from "./profile/route";
import * as relayStatus from "./relay/status/route";
import * as reputationWallet from "./reputation/[wallet]/route";
import * as settle from "./settle/route";
import * as socialOembed from "./social/oembed/route";
import * as socialPostsId from "./social/posts/[id]/route";
import * as socialPosts from "./social/posts/route";
import * as uploads from "./uploads/route";
import * as verify from "./verify/route";
import * as wallet from "./wallet/route";
import * as walletWithdrawals from "./wallet/withdrawals/route";
import * as webhooksIdDeliveriesDeliveryidResend from "./webhooks/[id]/deliveries/[deliveryId]/resend/route";
import * as webhooksIdDeliveries from "./webhooks/[id]/deliveries/route";
import * as webhooksIdRotateSecret from "./webhooks/[id]/rotate-secret/route";
import * as webhooksId from "./webhooks/[id]/route";
import * as webhooksIdTest from "./webhooks/[id]/test/route";
import * as webhooks from "./webhooks/route";

// The API reference with what each route declares in its own route({ auth, scope }): the
// scope column of /docs and /api/openapi.json is read from the handlers, never written
// twice. lib/ cannot import app/, so the route modules are gathered here, by reference
// path; test/api/reference.test.ts fails when a route file is missing from this list.
// Not listed: /api/openapi.json (it serves this; public) and the dev-only /api/dev/*.

export const routeModules: Record<string, Record<string, unknown>> = {
  "/api/auth/identities": authIdentities,
  "/api/auth/me": authMe,
  "/api/auth/role": authRole,
  "/api/auth/session": authSession,
  "/api/auth/wallet/nonce": authWalletNonce,
  "/api/auth/wallet": authWallet,
  "/api/chain": chain,
  "/api/cron/reconcile": cronReconcile,
  "/api/deals/{id}/accept": dealsIdAccept,
  "/api/deals/{id}/cancel": dealsIdCancel,
  "/api/deals/{id}/events": dealsIdEvents,
  "/api/deals/{id}/messages": dealsIdMessages,
  "/api/deals/{id}/bonuses": dealsIdBonuses,
  "/api/deals/{id}/bonuses/{bonusId}": dealsIdBonusesBonusId,
  "/api/deals/{id}/bonuses/{bonusId}/release": dealsIdBonusesBonusIdRelease,
  "/api/deals/{id}/messages/read": dealsIdMessagesRead,
  "/api/deals/{id}/messages/{messageId}/attachment": dealsIdMessagesMessageIdAttachment,
  "/api/deals/{id}/funding/authorization": dealsIdFundingAuthorization,
  "/api/deals/{id}/funding/deposit": dealsIdFundingDeposit,
  "/api/deals/{id}/funding": dealsIdFunding,
  "/api/deals/{id}/refund": dealsIdRefund,
  "/api/deals/{id}": dealsId,
  "/api/deals": deals,
  "/api/demo/ensure-deals": demoEnsureDeals,
  "/api/demo/unlock": demoUnlock,
  "/api/events": events,
  "/api/faucet/drip": faucetDrip,
  "/api/faucet/test-usdc": faucetTestUsdc,
  "/api/health": health,
  "/api/keys/{id}": keysId,
  "/api/keys": keys,
  "/api/ledger": ledger,
  "/api/ledger.csv": ledgerCsv,
  "/api/milestones/{id}/appeal": milestonesIdAppeal,
  "/api/milestones/{id}/decision": milestonesIdDecision,
  "/api/milestones/{id}/deliverable": milestonesIdDeliverable,
  "/api/milestones/{id}/drafts/{draftId}/approve": milestonesIdDraftsDraftidApprove,
  "/api/milestones/{id}/drafts/{draftId}/media": milestonesIdDraftsDraftidMedia,
  "/api/milestones/{id}/drafts/{draftId}/request-changes": milestonesIdDraftsDraftidRequestChanges,
  "/api/milestones/{id}/drafts/{draftId}": milestonesIdDraftsDraftid,
  "/api/milestones/{id}/drafts": milestonesIdDrafts,
  "/api/milestones/{id}/evidence": milestonesIdEvidence,
  "/api/milestones/{id}/precheck": milestonesIdPrecheck,
  "/api/milestones/{id}/refund": milestonesIdRefund,
  "/api/milestones/{id}/request-changes": milestonesIdRequestChanges,
  "/api/milestones/{id}": milestonesId,
  "/api/notifications/read": notificationsRead,
  "/api/notifications": notifications,
  "/api/notifications/unread": notificationsUnread,
  "/api/profile/handles": profileHandles,
  "/api/profile/handles/verify": profileHandlesVerify,
  "/api/profile": profile,
  "/api/relay/status": relayStatus,
  "/api/reputation/{wallet}": reputationWallet,
  "/api/settle": settle,
  "/api/social/oembed": socialOembed,
  "/api/social/posts/{id}": socialPostsId,
  "/api/social/posts": socialPosts,
  "/api/verify": verify,
  "/api/wallet": wallet,
  "/api/wallet/withdrawals": walletWithdrawals,
  "/api/uploads": uploads,
  "/api/webhooks/{id}/deliveries/{deliveryId}/resend": webhooksIdDeliveriesDeliveryidResend,
  "/api/webhooks/{id}/deliveries": webhooksIdDeliveries,
  "/api/webhooks/{id}/rotate-secret": webhooksIdRotateSecret,
  "/api/webhooks/{id}/test": webhooksIdTest,
  "/api/webhooks/{id}": webhooksId,
  "/api/webhooks": webhooks,
};

/** The reference (lib/openapi.ts endpoints) with each operation's declared API-key scope. */
export const reference: Endpoint[] = withScopes(endpoints, (method, path) =>
  routeAccess(routeModules[path]?.[method]),
);

/** One endpoint's examples on /docs, from the reference document (lib/api/examples.ts). */
export type EndpointExamples = {
  request: RequestExample;
  curl: string;
  typescript: string;
  /** The success answer's example; null when it has no body (204). */
  response: unknown;
};

/** The query as it travels: every value a string, as route() reads it from the URL. */
const asSent = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));

/**
 * Every endpoint's examples, keyed `METHOD path`: the request is checked against the route's
 * own zod schemas (routeSchemas) to choose between its required fields and all of them.
 */
export function referenceExamples(baseUrl: string): Map<string, EndpointExamples> {
  const doc = openApiDocument(baseUrl, reference) as unknown as Parameters<
    typeof requestExample
  >[0];
  const out = new Map<string, EndpointExamples>();
  for (const e of reference) {
    const schemas = routeSchemas(routeModules[e.path]?.[e.method]);
    const request = requestExample(doc, e, {
      body: schemas?.body && ((v) => schemas.body?.safeParse(v).success === true),
      query:
        schemas?.query &&
        ((v) => schemas.query?.safeParse(asSent(v as Record<string, unknown>)).success === true),
    });
    out.set(`${e.method} ${e.path}`, {
      request,
      curl: curlExample(e, request, baseUrl),
      typescript: typescriptExample(e, request),
      response: responseExample(doc, e),
    });
  }
  return out;
}
