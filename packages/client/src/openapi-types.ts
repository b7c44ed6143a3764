// Generated from the API reference (lib/openapi.ts) by openapi-typescript: do not edit.
// After changing the reference: npm run openapi -- --types
export interface paths {
    "/api/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify an identity token, upsert the user, start a session (cookie + bearer token). */
        post: operations["postAuthSession"];
        /** Sign out: revokes every session token of the caller (bearer or cookie; all devices) and clears the cookie. */
        delete: operations["deleteAuthSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The ways the caller's account signs in (the first one, and those linked later from the profile) and which it can still link. One account per verified e-mail: a new way in whose e-mail another account holds is refused (409 account_exists) until linked from that account. */
        get: operations["getAuthIdentities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user. */
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Switch the active role (creator | organization). Never widens access to records. */
        post: operations["postAuthRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/wallet/nonce": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A one-time nonce (and message) to sign for wallet linking. */
        get: operations["getAuthWalletNonce"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Link a wallet by signing the nonce message (SIWE-style). Payouts go only to a proven wallet. */
        post: operations["postAuthWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's deals, as brand or creator, a page at a time. `?open=1`: open deals a creator may take. `limit` 1..100 (default 20), `cursor` from `nextCursor` (rows inserted while paging never shift later pages); filters `status`, `platform`, `search` (title or description, case-insensitive substring); `sort` newest (default) | oldest | budget. Each deal's `brand` and `creator` carry `{ id, name }` (`name`: the display name, else the e-mail). */
        get: operations["getDeals"];
        put?: never;
        /** A brand creates a deal with its milestones (budget = sum of amounts). It is `unfunded` — invisible to creators — until the escrow holds the budget. Optional `deadline` (default 30 days): unreleased milestones are refundable to the brand after it plus 7 days. `disclosure` (default `{ required: true }`): every post must carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the platform's paid-partnership label (FTC guidance); `{ required: false, reason }` turns it off, the reason shown to the creator. */
        post: operations["postDeals"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's profile: the display name shown on deals instead of the e-mail. */
        get: operations["getProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set the display name (an organisation's name, a creator's); null or an empty string removes it. */
        patch: operations["patchProfile"];
        trace?: never;
    };
    "/api/deals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One deal with its milestones (its parties; open deals to anyone signed in). */
        get: operations["getDealsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** The brand edits a deal nobody has taken; fields left out stay, `milestones` replaces the list. Unfunded: everything may change (the escrow is read first; a funding nobody reported opens the deal and the funded rules apply). Funded (`open`): the escrow holds the deadline and each milestone's amount — those (and the number of milestones) must stay; names, due dates within the deadline, requirements, title, description, platform, minimum score, auto-settle threshold (`autoSettleConfidence`), review window, disclosure rule (`{ required: false, reason }` to turn it off) and invite may change. One `edited` event names the fields changed; nothing changed, no event. */
        patch: operations["patchDealsById"];
        trace?: never;
    };
    "/api/deals/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A creator takes an open (funded) deal, in the version of its terms they reviewed (`termsVersion`, optional); of two racing creators one wins. Their proven wallet is recorded in the escrow as the payee; from then on the brand cannot cancel. */
        post: operations["postDealsByIdAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The deal's activity log, oldest first: created, funded, taken, submitted, verified, rejected, approved, paid, refunded, cancelled, expired, completed — each written in the same transaction as its change. `limit` 1..100 (default 20), `cursor` from `nextCursor`. */
        get: operations["getDealsByIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The thread between the deal's brand and its creator, newest first, with the caller's `unreadCount` (the other party's messages after the caller's read marker). Bodies are plain text: render them as text. `limit` 1..100 (default 20), `cursor` from `nextCursor` (older messages). */
        get: operations["getDealsByIdMessages"];
        put?: never;
        /** Write to the other party of the deal: plain text, 1–4,000 characters (trimmed), as JSON; or with one file as multipart/form-data (`body`, `file`): a JPEG, PNG or WebP image or an MP4, MOV or WebM video, its real type read from its bytes, its size limited per kind (10 MB image, 100 MB video by default) and its metadata removed before it is stored. At most 20 messages a minute and 200 an hour per person, across every deal and every instance of the app. Records `message.created` (the other party's inbox, e-mail and webhooks; the deal's timeline). Sending reads the thread up to the new message. */
        post: operations["postDealsByIdMessages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/bonuses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The deal's bonuses, newest first: every one to the brand, the funded ones to the creator. `limit` 1..100 (default 20), `cursor` from `nextCursor`. */
        get: operations["getDealsByIdBonuses"];
        put?: never;
        /** The brand rewards the creator beyond the milestones: a bonus of `amount` USDC base units (1 to 1,000,000 USDC, as a string) with a plain-text message (1–1,000 characters), once a milestone of the deal is paid. A bonus is its own escrow deal (its ref is the bonus's id) with one milestone of the amount and the deal's creator: fund it exactly like a deal under the bonus's id (`funding`: GET /api/deals/{bonusId}/funding for the terms, then your wallet's `fund` and POST …/funding, a gasless POST …/funding/authorization, or its deposit address), then release it (POST …/bonuses/{bonusId}/release). Nothing moves until it is funded. A bonus never changes the creator's reputation: reputation follows verdicts only. Honours Idempotency-Key. */
        post: operations["postDealsByIdBonuses"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/bonuses/{bonusId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One bonus: poll it while it is `paying`. */
        get: operations["getDealsByIdBonusesByBonusId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/bonuses/{bonusId}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The brand funded the bonus: the escrow is read (a funding not reported yet is found, as POST …/funding does), the creator is assigned to the bonus's escrow deal, and the service's evaluator releases it at 100 % with the bonus record's hash — exactly once, however often or concurrently this is called; reconcile finishes a release a request left behind. Records `bonus.paid` on the deal (both parties' timelines, inboxes, e-mail and webhooks). Honours Idempotency-Key. */
        post: operations["postDealsByIdBonusesByBonusIdRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/messages/{messageId}/attachment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A message's file, streamed to the deal's two parties only: private, never cached by others, never sniffed into another type, sandboxed if opened on its own. */
        get: operations["getDealsByIdMessagesByMessageIdAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/messages/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Marks the thread read up to `upTo` (a message of this deal), or all of it; the marker never moves back. */
        post: operations["postDealsByIdMessagesRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every event of the deals you are a party of, as webhooks deliver them: `data.object` is the deal or milestone as it was right after the event, `data.previous_attributes` the fields a change changed, with their values before. Newest first with cursor pages; filter by `type` and by `object` (a deal's or milestone's id). `order=asc` replays oldest first from `cursor` or `after` (an event id), and with `wait` (up to 30 s) holds the request until the next event: how `npm run listen` follows the account. */
        get: operations["getEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/funding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The brand's funding terms: approve `total` to `escrow`, then call `fund(dealRef, evaluator, deadline, amounts)` from the funding wallet. The escrow keys the deal by its funder (`dealKey = keccak256(abi.encode(funder, dealRef))`), so nobody else can fund or cancel it. `?brand=0x…` gives that wallet's `dealKey` and the nonce a gasless EIP-3009 authorization must carry. */
        get: operations["getDealsByIdFunding"];
        put?: never;
        /** Report a funding: `brand`, the wallet it came from (kept for the deal; default: the one named before, else the account's linked wallet), and optionally `txHash`. The server reads the escrow's deal under that wallet's key (evaluator, deadline and amounts) and never trusts the hash; the deal becomes `open`. A funding by any other wallet is not this deal's. Fundings nobody reports are found by reconciliation under the same wallet. */
        post: operations["postDealsByIdFunding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/funding/deposit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Funding without a wallet: the deal's deposit address. Anyone sends exactly `amount` USDC to `address` (any wallet, an exchange withdrawal; `paymentUri` is its EIP-681 URI for a QR code). The address is a forwarder deployed with CREATE2 whose address binds this deal's ref, its terms and `refundAddress`: its only moves are funding this deal in the escrow (under dealKey(forwarder, dealRef), which nobody else can create) and returning money to `refundAddress`; anyone may trigger them, and the service never holds the money. Reconciliation watches it: `deposit.received` (under-paid: send the rest), then the sweep opens the deal (`funded`, with any over-payment returned to `refundAddress`); a deposit to a cancelled or expired deal, or a late top-up, is returned (`funding.returned`). `refundAddress` (default: the one named before, else your wallet) also receives every unreleased amount; it can change only while the address holds nothing (read on-chain; under 0.01 USDC of dust does not count). A replaced address is kept and watched until the deadline plus the grace period: what it receives goes back to its own refund address (`funding.returned`, reason `address_replaced`). GET …/funding shows the same block as `deposit`. */
        post: operations["postDealsByIdFundingDeposit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/funding/authorization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Gasless funding: the brand's signed EIP-3009 ReceiveWithAuthorization (nonce from GET …/funding?brand=) is submitted by the relayer, which pays the gas. A replay moves nothing. */
        post: operations["postDealsByIdFundingAuthorization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a deal nobody has taken. Unfunded: at once. Funded: only the brand's own `cancel(dealKey)` call to the escrow returns the money; this confirms it from the chain. */
        post: operations["postDealsByIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deals/{id}/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** After the deadline plus 7 days, every milestone still locked goes back to the brand (refundExpired; the service pays the gas). Safe to repeat. */
        post: operations["postDealsByIdRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/faucet/test-usdc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Local chain only: the caller's latest mint to this address as it stands (what a 202's `poll` names): its status follows its transaction, which reconcile finishes. Sends nothing. */
        get: operations["getFaucetTestUsdc"];
        put?: never;
        /** Local chain only: 1,000 test USDC and gas for a brand's wallet, to fund escrows with one click. Answers 202 with `poll` when the chain has not confirmed the mint within CHAIN_BUDGET_SECONDS (reconcile finishes it). */
        post: operations["postFaucetTestUsdc"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A milestone with its deliverables, verdicts and settlement. */
        get: operations["getMilestonesById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** The deal's brand changes the milestone's metadata (merged; a key sent with "" is removed), in any status. */
        patch: operations["patchMilestonesById"];
        trace?: never;
    };
    "/api/milestones/{id}/deliverable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The deal's creator submits a deliverable (a new revision; from pending or rejected). */
        post: operations["postMilestonesByIdDeliverable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** AI verification of the current deliverable (either party). One model call per revision; repeats return the stored verdict. */
        post: operations["postVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify → gate (approved && score ≥ minScore) → approve → one escrow release: floor(amount × score) USDC to the creator and the rest of the milestone back to the brand, carrying the verdict record's hash — exactly once. Answers 202 with `outcome: "submitted"`, the settlement as it stands and `poll` when the release was sent but not confirmed within CHAIN_BUDGET_SECONDS, or recorded and the node failed after: reconcile (or settling again) finishes it with the same signed bytes. Honours Idempotency-Key. Bulk: `{ milestoneIds: [...] }` (1–100 distinct ids, with the same via and minScore) settles each exactly as the single form would — the same scopes, owner checks, gate and exactly-once claim — and answers 200 with one result per id, in order, within one CHAIN_BUDGET_SECONDS; a repeat pays nothing twice. The milestones it pays are released together, in one escrow transaction (releaseBatch), the `logIndex` of each settlement naming its Released event in `txHash`. Example: `{ "milestoneIds": ["…a", "…b"] }` → `{ "results": [{ "milestoneId": "…a", "outcome": "paid", "settlement": {…} }, { "milestoneId": "…b", "outcome": "refused", "error": { "code": "needs_decision", "message": "…" } }] }`. */
        post: operations["postSettle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The brand decides on a rejected or unsettled revision: pay floor(amount × score) through the same escrow release as settle (the decision record's hash on-chain), or uphold the rejection — always with a reason. One decision per revision; answers an open appeal. Honours Idempotency-Key. */
        post: operations["postMilestonesByIdDecision"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/appeal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The creator appeals a rejected revision, with a reason; the brand answers with a decision. */
        post: operations["postMilestonesByIdAppeal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A URL to send one file (a draft's image or video) straight to the bucket, so a large video never passes through the app (a serverless host caps request bodies: Vercel at 4.5 MB). PUT exactly `size` bytes with the given headers within 15 minutes, then name the returned `id` as `upload` when sending the draft: the file is then checked (its real type, its size by kind) and its metadata removed, exactly as a form upload. Only where uploads are kept in a bucket (S3_BUCKET); the embedded setup answers 503 not_configured and takes the file in the draft's form. 60 a minute per person. */
        post: operations["postUploads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The milestone's drafts, newest revision first, each with the brand's answer and the rule checks on its caption as they stand now. The deal's two parties only. */
        get: operations["getMilestonesByIdDrafts"];
        put?: never;
        /** The creator sends a draft of the post before publishing it: the caption, and the media as a file (multipart/form-data: `caption`, `link`, `file`), as a file sent straight to the bucket beforehand (JSON `upload`: see POST /api/uploads) or a link (JSON or form). Each draft is a new revision; one still waiting for the brand is superseded. The milestone's hashtags, mentions and links are checked on the caption at once (`check`). A file's real type is read from its bytes (JPEG, PNG, WebP; MP4, MOV, WebM), its size limited per kind (10 MB image, 100 MB video by default) and its metadata removed before it is stored. 30 a minute per creator. Records `draft.submitted`. */
        post: operations["postMilestonesByIdDrafts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/drafts/{draftId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One draft. The deal's two parties only. */
        get: operations["getMilestonesByIdDraftsByDraftId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/drafts/{draftId}/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The draft's file, streamed by the app to the deal's two parties only (never a public bucket URL): its stored type, `Cache-Control: private, no-store`, `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy. */
        get: operations["getMilestonesByIdDraftsByDraftIdMedia"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/drafts/{draftId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The brand approves a draft waiting for it. Exactly once: of concurrent or repeated approvals one records `draft.approved`, the rest answer the approved draft. The live post must then match its caption: the verifier lists the differences under `missing` when the post's caption is less than DRAFT_MATCH_MIN_SIMILARITY (0.9) the same. */
        post: operations["postMilestonesByIdDraftsByDraftIdApprove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/drafts/{draftId}/request-changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The brand asks for changes to a draft waiting for it, with a message; the creator answers with a new revision. Once: a repeat answers the draft as it is. Records `draft.changes_requested`. */
        post: operations["postMilestonesByIdDraftsByDraftIdRequestChanges"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/request-changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The brand sends a submission awaiting review back to the creator with a message (plain text, 1–2,000 characters). The milestone goes back to pending with no verdict: nothing is paid, refunded or recorded against the creator's reputation; the next submission is a new revision with its own review window, and the revision sent back can no longer be verified, settled or decided. A settle that claimed the milestone first wins (409). Emits milestone.changes_requested. Honours Idempotency-Key. */
        post: operations["postMilestonesByIdRequestChanges"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The brand takes back a milestone past its due date with nothing delivered: an escrow release paying the creator 0 and the brand the whole milestone. Honours Idempotency-Key. */
        post: operations["postMilestonesByIdRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/relay/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether relayed (gasless) settlement is configured; `?chainId=`. */
        get: operations["getRelayStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/faucet/drip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's drip as it stands (what a 202's `poll` names): its status follows its transaction, which reconcile finishes. Sends nothing. */
        get: operations["getFaucetDrip"];
        put?: never;
        /** One-time 2.00 USDC testnet drip per address and per user. */
        post: operations["postFaucetDrip"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The wallets holding your USDC — the signed-in (embedded) wallet, the linked wallet, and a brand's funding wallets — each with its balance read on-chain, and your latest sends. */
        get: operations["getWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/wallet/withdrawals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send USDC from your signed-in (embedded) wallet to an address, e.g. an exchange deposit address. The wallet signs a USDC transfer authorization (EIP-3009) and the service's relayer submits it and pays the network fee. Never more than the balance; Idempotency-Key honoured. */
        post: operations["postWalletWithdrawals"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reputation/{wallet}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** On-chain reputation: settled milestones and their mean score. */
        get: operations["getReputationByWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/demo/unlock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange the demo passphrase for an unlock cookie. */
        post: operations["postDemoUnlock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/demo/ensure-deals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Seed the three starter deals for the calling brand, once. */
        post: operations["postDemoEnsureDeals"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Database and chain reachability. With ?detail=1 and the cron secret as bearer (operators): queue depths (e-mails, webhook deliveries, unmined transactions), the oldest unmined transaction's age, and the signer's balance against SIGNER_BALANCE_FLOOR_WEI. */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cron/reconcile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reconcile routine (a scheduler calls it with `Authorization: Bearer <CRON_SECRET>`): finishes settlements and transactions left pending, notices unreported fundings, records reputation, sends webhook deliveries and e-mails due, runs out review windows. `?settlement=` finishes just that settlement. */
        get: operations["getCronReconcile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This reference as OpenAPI 3.1 (rendered at /docs). */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's inbox, newest first: the other party's (and the service's) actions on their deals. Query ?limit=1..100&cursor=&unread=true. */
        get: operations["getNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/unread": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many of the caller's notifications are unread. */
        get: operations["getNotificationsUnread"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark notifications read: { ids } (the caller's own; others are ignored) or { all: true }. */
        post: operations["postNotificationsRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's endpoints, newest first (never their secrets). Query ?limit=1..100&cursor=. */
        get: operations["getWebhooks"];
        put?: never;
        /** Register an endpoint for the events of the caller's deals (all types, or the ones listed). The URL must be https on a public address. The signing secret is in this answer only. */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the caller's endpoints. `disabledReason` is set when the service disabled it after persistent failure. */
        get: operations["getWebhooksById"];
        put?: never;
        post?: never;
        /** Remove an endpoint and its delivery log. */
        delete: operations["deleteWebhooksById"];
        options?: never;
        head?: never;
        /** Change url or eventTypes, enable (clears the disabled notice) or disable (pending deliveries fail; resend brings them back). */
        patch: operations["patchWebhooksById"];
        trace?: never;
    };
    "/api/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new signing secret, in this answer only; the old one stops signing at once. */
        post: operations["postWebhooksByIdRotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The endpoint's delivery log, newest first, with status codes and errors. Resend one with POST /api/webhooks/{id}/deliveries/{deliveryId}/resend (202; refused with 409 invalid_state while the endpoint is disabled). Query ?limit=1..100&cursor=. */
        get: operations["getWebhooksByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{deliveryId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a delivery again (also one already delivered: the receiver de-duplicates on the event id), due now with a fresh retry budget; it is sent right after this answer. */
        post: operations["postWebhooksByIdDeliveriesByDeliveryIdResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test event of any type to this endpoint: shaped like a real event (`test: true`, a sample deal or milestone as `data.object`), signed, sent right after this answer and retried like any delivery; it shows in the delivery log with the request body and the receiver's answer. */
        post: operations["postWebhooksByIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's keys, newest first, revoked ones included (never the secrets). Query ?limit=1..100&cursor=. */
        get: operations["getKeys"];
        put?: never;
        /** Create an API key (mk_…) with scopes read | write | settle | webhooks and an optional expiry. The key is in this answer only; only its SHA-256 is stored. */
        post: operations["postKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of the caller's keys: it is 401 invalid_token from the next request on. */
        delete: operations["deleteKeysById"];
        options?: never;
        head?: never;
        /** Rename one of the caller's keys that is not revoked, re-pin its API version, or change its metadata (merged; a key sent with "" is removed). */
        patch: operations["patchKeysById"];
        trace?: never;
    };
    "/api/milestones/{id}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The posts the verifier read for this milestone, one per revision, newest first, paginated (parties only; `revision` picks one): status (ok | deleted | unreachable | blocked | unsupported), platform, canonical URL, author against the creator's declared handle, caption, content hash. */
        get: operations["getMilestonesByIdEvidence"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/milestones/{id}/precheck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The deal's creator checks a post before submitting it: the post at `url` is read as the verifier reads it and put through the rule checks (required hashtags, mentions and links in its caption, its author, the rule score and its deductions). Nothing is stored and no money moves; the verdict that counts is the one on the submitted revision. Rate-limited: 10 a minute per creator. */
        post: operations["postMilestonesByIdPrecheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/profile/handles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's declared handle per platform. */
        get: operations["getProfileHandles"];
        /** Declare (or change) the caller's handle on a platform (instagram | tiktok | x | youtube | sandbox). A deliverable's post must be by this handle, verified, to be approved automatically. A new or changed handle is unverified and gets a one-time code (`verification.code`, valid 3 days); declaring the same handle again keeps its verification, or issues a new code once the old one expired. */
        put: operations["putProfileHandles"];
        post?: never;
        /** Remove the caller's handle on one platform (?platform=…). */
        delete: operations["deleteProfileHandles"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/profile/handles/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Prove a declared handle is the caller's: publish a post by the handle whose text contains its `verification.code`, then send the post's URL. The post is read like a deliverable's (the sandbox, oEmbed, OpenGraph); the handle is verified when the post is on that platform, its author is the handle and its text holds the unexpired code. Until then a verdict on the handle's posts is `approved: false`. (A code in the profile bio and the platforms' OAuth are not read yet.) */
        post: operations["postProfileHandlesVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/social/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's sandbox posts, newest first. */
        get: operations["getSocialPosts"];
        put?: never;
        /** Publish a post on the sandbox platform (embedded setup). The first post claims the handle as the caller's sandbox handle; later posts must use it. `paidPartnership: true` shows the sandbox's paid-partnership label, which the verifier accepts as the disclosure. */
        post: operations["postSocialPosts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/social/posts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one of the caller's sandbox posts (its oEmbed answers 404 from then on). */
        delete: operations["deleteSocialPostsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/social/oembed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** oEmbed of a sandbox post (?url=…): what the verifier reads, as from any platform. */
        get: operations["getSocialOembed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chain this deployment settles on, for integrators: chain id and name, a public JSON-RPC URL (the local node on the local chain; never the service's own RPC_URL), the USDC and escrow addresses, USDC's EIP-712 domain `{ name, version }` as the token reports it (eip712Domain(), else name() and version(): what a gasless funding authorization is signed under, with `chainId` and `verifyingContract: usdc`), and how many confirmations the service waits for. */
        get: operations["getChain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's money records across all their deals, newest first: every funding (brand wallet → escrow), release (escrow → creator; the brand's and the creator's), refund (`reason`: remainder of a release, cancel, expired) and withdrawal (USDC sent out of the caller's embedded wallet, once confirmed; `deal: null`), with the amount (6 decimals), the parties, the transaction and its explorer link, and for releases the verdict hash the release carried. A brand sees its fundings, releases and refunds; a creator the releases it received; everyone their own withdrawals. Filters `kind`, `dealId`, `from`, `to` (dates, UTC; `to` includes its day); `?limit=1..100&cursor=`; `format=csv` answers the whole filtered ledger as GET /api/ledger.csv does. */
        get: operations["getLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ledger.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's whole ledger (same filters, no paging) as CSV: `text/csv`, RFC 4180 (CRLF; a cell with a comma, quote or line break in double quotes), sent as an attachment. A cell that starts with = + - @ (a spreadsheet formula) is prefixed with an apostrophe. */
        get: operations["getLedgerCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        User: {
            /** Format: uuid */
            id: string;
            email: string;
            /** @enum {string} */
            profileType: "creator" | "organization";
            /** @description EIP-55; null until a wallet is proven */
            walletAddress: string | null;
        };
        /** @description The contract's error envelope */
        Error: {
            error: {
                /** @enum {string} */
                code: "invalid_json" | "invalid_request" | "unauthenticated" | "invalid_token" | "invalid_passphrase" | "invalid_signature" | "forbidden" | "csrf_rejected" | "insufficient_scope" | "wrong_role" | "faucet_disabled" | "not_found" | "method_not_allowed" | "conflict" | "no_deliverable" | "already_settled" | "settlement_in_progress" | "invalid_state" | "wallet_taken" | "account_exists" | "identity_in_use" | "wallet_required" | "budget_exceeded" | "not_funded" | "already_decided" | "appeal_exists" | "changes_requested" | "changes_already_requested" | "review_window_open" | "needs_decision" | "deal_not_editable" | "terms_locked" | "terms_changed" | "evidence_already_used" | "handle_unverified" | "funding_in_progress" | "insufficient_funds" | "idempotency_key_reused" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal" | "verifier_unavailable" | "chain_unavailable" | "relay_unavailable" | "not_configured" | "unavailable";
                message: string;
                details?: unknown;
                /** @description The request's id, as in its Request-Id header: quote it when reporting */
                requestId?: string;
            };
        };
        SignInMethod: {
            /**
             * @description oidc: the configured OpenID provider; email: an e-mail link; wallet: Sign in with Ethereum; token: an ID token from another issuer (API only)
             * @enum {string}
             */
            kind: "oidc" | "email" | "wallet" | "token";
            /** @description What the profile calls it, e.g. 'Google' or 'E-mail link' */
            label: string;
            /** @description The e-mail or the wallet it proves, when known */
            detail: string | null;
            /** @description The way the account was made (the others were added later) */
            first: boolean;
            /** @description When it was added; null for what follows from the account itself */
            linkedAt: string | null;
        };
        WalletNonce: {
            nonce: string;
            /** Format: date-time */
            issuedAt: string;
            /** Format: date-time */
            expiresAt: string;
            domain: string;
            uri: string;
            statement: string;
            chainId: number;
            /** @description The SIWE message to sign (given ?address=) */
            message?: string;
        };
        Deal: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            brandId: string;
            creatorId: string | null;
            title: string;
            description: string;
            platform: string;
            /** @description USDC */
            budget: number;
            /** @enum {string} */
            status: "unfunded" | "open" | "active" | "completed" | "cancelled" | "expired";
            minScore: number;
            /** @description The confidence a verdict needs to settle on its own; below it POST /api/settle answers 409 needs_decision and the brand decides */
            autoSettleConfidence: number;
            /** @description Goes up with each edit of the terms; pass it to accept to take this version */
            termsVersion: number;
            /** @description The deal's FTC disclosure rule: on by default, off only with a reason */
            disclosure: {
                /** @description Every post must carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the platform's paid-partnership label */
                required: boolean;
                /** @description Why the brand turned the rule off; null while it is on */
                reason: string | null;
            };
            inviteEmail: string | null;
            /** @description Paid out so far (confirmed settlements) */
            paid: string;
            escrow: components["schemas"]["Escrow"];
            brand: {
                /** Format: uuid */
                id: string;
                /** @description The display name, else the e-mail */
                name: string;
                /** @description Deprecated: kept for older clients */
                email: string;
            } | null;
            creator: {
                /** Format: uuid */
                id: string;
                /** @description The display name, else the e-mail */
                name: string;
                /** @description Deprecated: kept for older clients */
                email: string;
                walletAddress: string | null;
            } | null;
            /** @description Your own key-value pairs (up to 20) */
            metadata: {
                [key: string]: string;
            };
            /** Format: date-time */
            createdAt: string;
            milestones: components["schemas"]["Milestone"][];
        };
        Escrow: {
            funded: boolean;
            /** @description USDC, a decimal string with 6 places */
            budget: string;
            /** @description Still held by the escrow */
            locked: string;
            /** @description Paid to the creator */
            released: string;
            /** @description Returned to the brand */
            refunded: string;
            /** Format: date-time */
            deadline: string;
            /**
             * Format: date-time
             * @description After this instant unreleased milestones are refundable
             */
            refundableAt: string;
            chainId: number | null;
            address: string | null;
            brandWallet: string | null;
            refundTo: string | null;
            creatorWallet: string | null;
            creatorAssigned: boolean;
            fundingTxHash: string | null;
            fundingExplorerUrl: string | null;
        };
        Milestone: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            dealId: string;
            title: string;
            /** @description USDC */
            amount: number;
            requirements: components["schemas"]["Requirements"];
            dueAt: string | null;
            /** @enum {string} */
            status: "pending" | "submitted" | "approved" | "paid" | "rejected" | "refunded";
            /** @description The current revision's deliverable */
            deliverable: components["schemas"]["Deliverable"] | null;
            /** @description The verdict on the current revision */
            verdict: components["schemas"]["Verdict"] | null;
            settlement: components["schemas"]["Settlement"] | null;
            /** @description Set while the milestone is pending because the brand asked for changes to its last submission (its deliverable is that revision; its verdict is null) */
            changeRequest: components["schemas"]["ChangeRequest"] | null;
            refundTxHash: string | null;
            /** @description Your own key-value pairs (up to 20) */
            metadata: {
                [key: string]: string;
            };
        };
        Requirements: {
            hashtags: string[];
            mentions: string[];
            links: string[];
            criteria: string[];
        };
        Deliverable: {
            url: string;
            text: string;
            note: string;
            revision: number;
            /** Format: date-time */
            submittedAt: string;
        };
        Verdict: {
            approved: boolean;
            score: number;
            reasoning: string;
            missing: string[];
            model: string;
            /** @description Who judged: "Rule check", "AI review (model)", "Panel of N models", "Brand decision" */
            verifier: string;
            /** @description What took the score below 100 %, one line each */
            deductions: {
                /** @description The share taken off the score (0.1 = 10 %) */
                points: number;
                reason: string;
            }[];
            /** @description How sure the verifier is; below the auto-settle threshold the brand decides */
            confidence: number;
            revision: number;
            /** Format: date-time */
            verifiedAt: string;
        };
        Settlement: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            milestoneId: string;
            /** @enum {string} */
            via: "direct" | "relay";
            chainId: number;
            /** @description Paid to the creator by the escrow release */
            amount: string;
            /** @description The rest of the milestone, returned to the brand by the same release */
            refund: string;
            /** @description The verdict (or decision) record's hash on-chain */
            verdictHash: string | null;
            scoreUsed: number;
            recipient: string;
            txHash: string | null;
            /** @description The escrow's Released event for this milestone in txHash's receipt: one transaction may pay several settlements */
            logIndex: number | null;
            /** @enum {string} */
            status: "pending" | "submitted" | "confirmed" | "failed";
            explorerUrl: string | null;
            reputationTxHash: string | null;
            /** @description A settle call or reconcile is advancing the payment right now */
            inFlight: boolean;
            /** @description Why the last attempt failed (a failed settlement) */
            error: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ChangeRequest: {
            /** Format: uuid */
            id: string;
            /** @description The revision sent back; the creator's next submission is the next one */
            revision: number;
            /** @description What the brand asks to change (plain text) */
            message: string;
            /** Format: date-time */
            requestedAt: string;
        };
        Profile: {
            /** Format: uuid */
            id: string;
            email: string;
            /** @enum {string} */
            profileType: "creator" | "organization";
            /** @description null: none set (the e-mail is shown) */
            displayName: string | null;
        };
        DealDetail: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            brandId: string;
            creatorId: string | null;
            title: string;
            description: string;
            platform: string;
            /** @description USDC */
            budget: number;
            /** @enum {string} */
            status: "unfunded" | "open" | "active" | "completed" | "cancelled" | "expired";
            minScore: number;
            /** @description The confidence a verdict needs to settle on its own; below it POST /api/settle answers 409 needs_decision and the brand decides */
            autoSettleConfidence: number;
            /** @description Goes up with each edit of the terms; pass it to accept to take this version */
            termsVersion: number;
            /** @description The deal's FTC disclosure rule: on by default, off only with a reason */
            disclosure: {
                /** @description Every post must carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the platform's paid-partnership label */
                required: boolean;
                /** @description Why the brand turned the rule off; null while it is on */
                reason: string | null;
            };
            inviteEmail: string | null;
            /** @description Paid out so far (confirmed settlements) */
            paid: string;
            escrow: components["schemas"]["Escrow"];
            brand: {
                /** Format: uuid */
                id: string;
                /** @description The display name, else the e-mail */
                name: string;
                /** @description Deprecated: kept for older clients */
                email: string;
            } | null;
            creator: {
                /** Format: uuid */
                id: string;
                /** @description The display name, else the e-mail */
                name: string;
                /** @description Deprecated: kept for older clients */
                email: string;
                walletAddress: string | null;
            } | null;
            /** @description Your own key-value pairs (up to 20) */
            metadata: {
                [key: string]: string;
            };
            /** Format: date-time */
            createdAt: string;
            milestones: components["schemas"]["MilestoneWithReview"][];
            reviewWindowSeconds: number;
        };
        MilestoneWithReview: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            dealId: string;
            title: string;
            /** @description USDC */
            amount: number;
            requirements: components["schemas"]["Requirements"];
            dueAt: string | null;
            /** @enum {string} */
            status: "pending" | "submitted" | "approved" | "paid" | "rejected" | "refunded";
            /** @description The current revision's deliverable */
            deliverable: components["schemas"]["Deliverable"] | null;
            /** @description The verdict on the current revision */
            verdict: components["schemas"]["Verdict"] | null;
            settlement: components["schemas"]["Settlement"] | null;
            /** @description Set while the milestone is pending because the brand asked for changes to its last submission (its deliverable is that revision; its verdict is null) */
            changeRequest: components["schemas"]["ChangeRequest"] | null;
            refundTxHash: string | null;
            /** @description Your own key-value pairs (up to 20) */
            metadata: {
                [key: string]: string;
            };
            review: components["schemas"]["Review"];
        };
        Review: {
            /** @description When the brand's review window ends (null: none) */
            windowEndsAt: string | null;
            creatorMaySettle: boolean;
            overdue: boolean;
            appeal: components["schemas"]["Appeal"] | null;
            decision: components["schemas"]["Decision"] | null;
        };
        Appeal: {
            /** Format: uuid */
            id: string;
            revision: number;
            reason: string;
            /** @enum {string} */
            status: "open" | "decided";
            /** Format: date-time */
            createdAt: string;
            decidedAt: string | null;
        };
        Decision: {
            /** Format: uuid */
            id: string;
            /** @description 0: the refund of an overdue milestone with nothing delivered */
            revision: number;
            approved: boolean;
            score: number;
            reason: string;
            decidedBy: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            appealId: string | null;
            /** @description keccak256 of the canonical decision record */
            recordHash: string;
            /** Format: date-time */
            decidedAt: string;
        };
        DealEvent: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "created" | "edited" | "funded" | "taken" | "submitted" | "verified" | "rejected" | "approved" | "paid" | "refunded" | "cancelled" | "expired" | "completed" | "appealed" | "decided" | "overdue" | "review_window_elapsed" | "deposit.received" | "funding.returned" | "draft.submitted" | "draft.approved" | "draft.changes_requested" | "milestone.changes_requested" | "message.created" | "bonus.funded" | "bonus.paid";
            /** Format: uuid */
            dealId: string;
            milestoneId: string | null;
            actor: {
                /** Format: uuid */
                id: string;
            } | null;
            data: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            createdAt: string;
        };
        Message: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            dealId: string;
            author: {
                /** Format: uuid */
                id: string;
                /** @enum {string} */
                role: "brand" | "creator";
            };
            /** @description Plain text, as sent: render it as text, never as HTML */
            body: string;
            attachment: {
                /** @description GET it with the same credentials (the deal's parties only) */
                url: string;
                contentType: string;
                /** @enum {string} */
                kind: "image" | "video";
                size: number;
                name: string | null;
            } | null;
            /** Format: date-time */
            createdAt: string;
        };
        Bonus: {
            /**
             * Format: uuid
             * @description The bonus; also its escrow deal's id, under which it is funded
             */
            id: string;
            /** @constant */
            object: "bonus";
            /**
             * Format: uuid
             * @description The deal the bonus rewards
             */
            dealId: string;
            /** @description Decimal USDC */
            amount: string;
            /** @description USDC base units */
            amountUnits: string;
            /** @description The brand's message: plain text, render it as text */
            message: string;
            /**
             * @description awaiting_funding: fund it (funding); funded: the escrow holds it, release it; paying: the release is sent; paid; cancelled or refunded: the money went back to the brand
             * @enum {string}
             */
            status: "awaiting_funding" | "funded" | "paying" | "paid" | "cancelled" | "refunded";
            /** @description Fund it like a deal: GET this for the terms (dealRef, amounts, deadline, authorization nonce, deposit address), then fund from a wallet and POST it, or POST …/authorization, or pay the deposit address */
            funding: string;
            /** @description The escrow deadline of the bonus */
            deadline: string;
            fundingTxHash: string | null;
            /** @description The escrow release that paid the creator */
            txHash: string | null;
            explorerUrl: string | null;
            /** @description keccak256 of the bonus record, carried by the release in place of a verdict hash */
            recordHash: string;
            createdAt: string;
            fundedAt: string | null;
            paidAt: string | null;
            /** @description 202 only: the bonus's URL, to GET until it is paid */
            poll?: string;
        };
        Event: {
            /**
             * Format: uuid
             * @description De-duplicate on it: a webhook may arrive more than once
             */
            id: string;
            /** @constant */
            object: "event";
            /** @enum {string} */
            type: "created" | "edited" | "funded" | "taken" | "submitted" | "verified" | "rejected" | "approved" | "paid" | "refunded" | "cancelled" | "expired" | "completed" | "appealed" | "decided" | "overdue" | "review_window_elapsed" | "deposit.received" | "funding.returned" | "draft.submitted" | "draft.approved" | "draft.changes_requested" | "milestone.changes_requested" | "message.created" | "bonus.funded" | "bonus.paid";
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            dealId: string;
            milestoneId: string | null;
            /** @description Null when the service did it */
            actor: {
                /** Format: uuid */
                id: string;
            } | null;
            /** @description A test event from the webhook settings */
            test: boolean;
            /** @description The snapshot, the changed fields, and the event's own details */
            data: {
                /** @description The deal or milestone as it was right after the event */
                object: ({
                    id: string;
                    /** @enum {string} */
                    object: "deal" | "milestone";
                } & {
                    [key: string]: unknown;
                }) | null;
                /** @description For a change: the fields it changed, with their values before */
                previous_attributes?: {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        };
        FundingTerms: {
            chainId: number;
            escrow: string;
            usdc: string;
            /** @description The deal's ref: what `fund` and `fundWithAuthorization` take */
            dealRef: string;
            /** @description The escrow key of the deal funded by `?brand=` (or the brand's known funding wallet): keccak256(abi.encode(funder, dealRef)) */
            dealKey: string | null;
            /** @description This service: the only address that can release milestones */
            evaluator: string;
            /** @description Unix seconds */
            deadline: number;
            graceSeconds: number;
            /** @description Milestone amounts, in order */
            amounts: string[];
            /** @description USDC, a decimal string with 6 places */
            total: string;
            /** @description USDC base units (6 decimals) */
            totalUnits: string;
            /** @description The EIP-3009 nonce a gasless authorization must carry (given ?brand=) */
            authorizationNonce: string | null;
            /** @enum {string} */
            status: "unfunded" | "open" | "active" | "completed" | "cancelled" | "expired";
            /** @description The deal's deposit address (null: the brand has no wallet and named no refund address, or the deal never had one) */
            deposit: components["schemas"]["Deposit"] | null;
        };
        Deposit: {
            /** @description Send exactly `amount` USDC here, from any wallet or exchange: the deal's deposit forwarder (CREATE2), which can only fund this deal in the escrow or return the money to `refundAddress` */
            address: string;
            /** @description The deal's total, in USDC */
            amount: string;
            /** @description USDC base units (6 decimals) */
            amountUnits: string;
            token: {
                /** @constant */
                symbol: "USDC";
                address: string;
                /** @constant */
                decimals: 6;
            };
            chainId: number;
            /** @description The chain's name */
            network: string;
            /** @description EIP-681: ethereum:<usdc>@<chainId>/transfer?address=<deposit>&uint256=<units> */
            paymentUri: string;
            /** @description What the address received (its balance while waiting; what it swept or returned after) */
            received: string;
            /** @description USDC base units (6 decimals) */
            receivedUnits: string;
            /**
             * @description awaiting: nothing yet; underpaid: less than `amount` (send the rest); funded: swept into the escrow; returned: sent back to `refundAddress`
             * @enum {string}
             */
            status: "awaiting" | "underpaid" | "funded" | "returned";
            /** @description Where an over-payment, a deposit to a cancelled or expired deal, and every unreleased amount go back */
            refundAddress: string;
        };
        TestFunds: {
            address: string;
            amount: string;
            txHash: string;
            explorerUrl: string | null;
            /** @enum {string} */
            status: "pending" | "submitted" | "confirmed" | "failed";
            /** @description 202 only (status pending or submitted): the mint is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; GET it for the mint's state (reconcile finishes it) */
            poll?: string;
        };
        MilestoneDetail: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            dealId: string;
            title: string;
            /** @description USDC */
            amount: number;
            requirements: components["schemas"]["Requirements"];
            dueAt: string | null;
            /** @enum {string} */
            status: "pending" | "submitted" | "approved" | "paid" | "rejected" | "refunded";
            /** @description The current revision's deliverable */
            deliverable: components["schemas"]["Deliverable"] | null;
            /** @description The verdict on the current revision */
            verdict: components["schemas"]["Verdict"] | null;
            settlement: components["schemas"]["Settlement"] | null;
            /** @description Set while the milestone is pending because the brand asked for changes to its last submission (its deliverable is that revision; its verdict is null) */
            changeRequest: components["schemas"]["ChangeRequest"] | null;
            refundTxHash: string | null;
            /** @description Your own key-value pairs (up to 20) */
            metadata: {
                [key: string]: string;
            };
            review: components["schemas"]["Review"];
            dealTitle: string;
            history: {
                deliverables: components["schemas"]["Deliverable"][];
                verdicts: components["schemas"]["Verdict"][];
                /** @description Every revision sent back for changes */
                changeRequests: components["schemas"]["ChangeRequest"][];
            };
        };
        UploadTicket: {
            upload: {
                /** @description Name this in the draft or message (`upload`) once the PUT succeeded */
                id: string;
                /**
                 * Format: uri
                 * @description PUT the file's bytes here
                 */
                url: string;
                /** @constant */
                method: "PUT";
                /** @description Send these headers with the PUT */
                headers: {
                    [key: string]: string;
                };
                /** Format: date-time */
                expiresAt: string;
            };
        };
        Draft: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            milestoneId: string;
            /** Format: uuid */
            dealId: string;
            revision: number;
            caption: string;
            media: ({
                /** @enum {string} */
                kind: "image" | "video";
                /** @description The stored file's type, as its bytes say */
                type: string;
                /** @description Bytes stored (after metadata was removed) */
                size: number;
                name: string | null;
                /** @description Where the deal's parties (only they) fetch the file: this API, not a bucket */
                url: string;
            } | {
                /** @constant */
                kind: "link";
                url: string;
            }) | null;
            /**
             * @description submitted: waiting for the brand; superseded: a newer revision replaced it before the brand answered
             * @enum {string}
             */
            status: "submitted" | "approved" | "changes_requested" | "superseded";
            /** @description The brand's message with a change request */
            reviewMessage: string | null;
            reviewedAt: string | null;
            createdAt: string;
            /** @description The milestone's rule checks on the draft's caption, as they stand now */
            check: {
                /** @description Every required hashtag, mention and link is in the caption */
                ready: boolean;
                /** @description What the caption lacks ("hashtag #launch") */
                missing: string[];
                requirements: {
                    /** @enum {string} */
                    kind: "hashtag" | "mention" | "link" | "disclosure";
                    value: string;
                    found: boolean;
                }[];
                /** @description The brand's free-text criteria: no rule judges them */
                criteria: string[];
            };
        };
        RelayStatus: {
            configured: boolean;
            provider: ("local" | "gelato") | null;
            chainId: number;
            supported: boolean;
            sponsor?: string;
            reason?: string;
        };
        Drip: {
            /** @description false: this address or user had its drip already */
            funded: boolean;
            /** @description "2.00" */
            amount: string;
            txHash: string;
            /** @constant */
            reason?: "already_funded";
            address: string;
            chainId: number;
            /** @enum {string} */
            status: "pending" | "submitted" | "confirmed" | "failed";
            explorerUrl: string | null;
            /** @description 202 only (status pending or submitted): the transfer is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; GET it for the drip's state (reconcile finishes the transfer) */
            poll?: string;
        };
        WalletOverview: {
            chainId: number;
            network: string;
            /** @description Human name of the network */
            networkName: string;
            token: {
                /** @constant */
                symbol: "USDC";
                address: string | null;
            };
            wallets: {
                address: string;
                /** @description "Signed-in wallet", "Linked wallet" or "Funding wallet" */
                label: string;
                /** @description embedded: the wallet your sign-in provider holds for you; linked: your payout wallet; funding: a wallet that funded your deals */
                roles: ("embedded" | "linked" | "funding")[];
                /** @description USDC held, read on-chain, as a decimal string */
                balance: string;
                /** @description true: POST /api/wallet/withdrawals can send from it (the embedded wallet) */
                canSend: boolean;
                explorerUrl: string | null;
                /** @description A card on-ramp to this wallet (ONRAMP_URL), or null */
                onrampUrl: string | null;
                /** @description A bank off-ramp from this wallet (OFFRAMP_URL), or null */
                offrampUrl: string | null;
            }[];
            canSend: boolean;
            /** @description Your latest 20 sends from the signed-in wallet, newest first (all of them: the ledger) */
            withdrawals: components["schemas"]["Withdrawal"][];
        };
        Withdrawal: {
            /** Format: uuid */
            id: string;
            chainId: number;
            /** @description The network's name (CHAIN): base, base-sepolia, local… */
            network: string;
            /** @constant */
            token: "USDC";
            /** @description Your signed-in (embedded) wallet */
            from: string;
            to: string;
            /** @description Decimal USDC, all 6 decimals: "12.500000" */
            amount: string;
            /**
             * @description pending / submitted: on its way (reconcile finishes it); confirmed: arrived; failed: nothing moved
             * @enum {string}
             */
            status: "pending" | "submitted" | "confirmed" | "failed";
            txHash: string;
            explorerUrl: string | null;
            createdAt: string;
        };
        Reputation: {
            wallet: string;
            chainId: number;
            registry: string;
            count: number;
            /** @description Mean score; null before any record */
            score: number | null;
        };
        Notification: {
            /** Format: uuid */
            id: string;
            read: boolean;
            /** Format: date-time */
            createdAt: string;
            title: string;
            detail: string | null;
            event: {
                /** Format: uuid */
                id: string;
                /** @enum {string} */
                type: "created" | "edited" | "funded" | "taken" | "submitted" | "verified" | "rejected" | "approved" | "paid" | "refunded" | "cancelled" | "expired" | "completed" | "appealed" | "decided" | "overdue" | "review_window_elapsed" | "deposit.received" | "funding.returned" | "draft.submitted" | "draft.approved" | "draft.changes_requested" | "milestone.changes_requested" | "message.created" | "bonus.funded" | "bonus.paid";
                /** Format: uuid */
                dealId: string;
                milestoneId: string | null;
                /** @enum {string} */
                actor: "brand" | "creator" | "service";
            };
        };
        WebhookEndpoint: {
            /** Format: uuid */
            id: string;
            url: string;
            /** @description Empty: every type */
            eventTypes: ("created" | "edited" | "funded" | "taken" | "submitted" | "verified" | "rejected" | "approved" | "paid" | "refunded" | "cancelled" | "expired" | "completed" | "appealed" | "decided" | "overdue" | "review_window_elapsed" | "deposit.received" | "funding.returned" | "draft.submitted" | "draft.approved" | "draft.changes_requested" | "milestone.changes_requested" | "message.created" | "bonus.funded" | "bonus.paid")[];
            enabled: boolean;
            /** @description Why the service disabled it (persistent failure) */
            disabledReason: string | null;
            disabledAt: string | null;
            /** @description Your own key-value pairs (up to 20) */
            metadata: {
                [key: string]: string;
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        WebhookDelivery: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The event's id: the receiver de-duplicates on it
             */
            eventId: string;
            /** @enum {string} */
            eventType: "created" | "edited" | "funded" | "taken" | "submitted" | "verified" | "rejected" | "approved" | "paid" | "refunded" | "cancelled" | "expired" | "completed" | "appealed" | "decided" | "overdue" | "review_window_elapsed" | "deposit.received" | "funding.returned" | "draft.submitted" | "draft.approved" | "draft.changes_requested" | "milestone.changes_requested" | "message.created" | "bonus.funded" | "bonus.paid";
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            lastStatusCode: number | null;
            lastError: string | null;
            /** @description When the next attempt is due (pending only) */
            nextAttemptAt: string | null;
            deliveredAt: string | null;
            /** @description A test event (POST /api/webhooks/:id/test) */
            test: boolean;
            /** @description The last attempt's request body (null before the first) */
            request: {
                body: string;
            } | null;
            /** @description What the receiver answered to the last attempt (null: no answer) */
            response: {
                status: number | null;
                headers: {
                    [key: string]: string;
                };
                /** @description The first 2 KiB */
                body: string;
            } | null;
            /** Format: date-time */
            createdAt: string;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The key's visible start: mk_ and 8 characters */
            prefix: string;
            scopes: ("read" | "write" | "settle" | "webhooks")[];
            expiresAt: string | null;
            /** @description To the minute */
            lastUsedAt: string | null;
            revokedAt: string | null;
            /** @description The API version the key's requests are answered in */
            apiVersion: string;
            metadata: {
                [key: string]: string;
            };
            /** Format: date-time */
            createdAt: string;
        };
        Evidence: {
            revision: number;
            /** @enum {string} */
            status: "ok" | "unreachable" | "deleted" | "blocked" | "unsupported";
            platform: string;
            url: string;
            canonicalUrl: string | null;
            authorHandle: string | null;
            /** @description The creator's declared handle there now */
            declaredHandle: string | null;
            authorMatches: boolean;
            caption: string | null;
            mediaType: string | null;
            thumbnailUrl: string | null;
            publishedAt: string | null;
            /** @description The platform showed its paid-partnership label on the post (false: not shown, or the platform does not say) */
            paidPartnership: boolean;
            /** Format: date-time */
            fetchedAt: string;
            contentHash: string;
            error: string | null;
        };
        Precheck: {
            /** @description Every rule check passes and the rule score reaches the deal's minimum */
            ready: boolean;
            /** @description What the verifier would find missing, in its words ("hashtag #ad") */
            missing: string[];
            /** @description Each required hashtag, mention and link, and whether the post's caption has it; last, when the deal requires disclosure, `disclosure`: #ad, #sponsored or #paidpartnership within the first 125 characters, or the platform's paid-partnership label */
            requirements: {
                /** @enum {string} */
                kind: "hashtag" | "mention" | "link" | "disclosure";
                value: string;
                found: boolean;
            }[];
            /** @description The rule check's score */
            score: number;
            /** @description What the rule check would take off, one line each */
            deductions: {
                points: number;
                reason: string;
            }[];
            /** @description The brand's free-text criteria: no rule judges them; the brand or a model will */
            criteria: string[];
            /** @description The deal's minimum score */
            minScore: number;
            post: {
                /** @description ok | deleted | unreachable | blocked | unsupported */
                status: string;
                platform: string;
                author: string | null;
                caption: string | null;
            };
        };
        Handle: {
            platform: string;
            handle: string;
            /** Format: date-time */
            createdAt: string;
            /** @description Proved the caller's: only then do its posts count */
            verified: boolean;
            verifiedAt: string | null;
            /** @description While unverified: the one-time code to place */
            verification: {
                /** @description Place it in a post by the handle, then ask for the check */
                code: string;
                /** Format: date-time */
                expiresAt: string;
                expired: boolean;
            } | null;
        };
        SandboxPost: {
            /** Format: uuid */
            id: string;
            url: string;
            handle: string;
            caption: string;
            mediaType: string;
            /** @description The post shows the sandbox's paid-partnership label */
            paidPartnership: boolean;
            /** Format: date-time */
            createdAt: string;
            deleted: boolean;
        };
        OEmbed: {
            /** @constant */
            version: "1.0";
            /** @enum {string} */
            type: "photo" | "video";
            provider_name: string;
            provider_url: string;
            url: string;
            title: string;
            author_name: string;
            author_url: string;
            media_type: string;
            /** @description The sandbox's own field: the post shows its paid-partnership label */
            paid_partnership: boolean;
            /** Format: date-time */
            published_at: string;
            thumbnail_url: string | null;
        };
        ChainInfo: {
            chainId: number;
            name: string;
            /**
             * Format: uri
             * @description A public JSON-RPC endpoint (never the service's own RPC_URL)
             */
            rpcUrl: string;
            usdc: string;
            escrow: string;
            /** @description The token's EIP-712 domain; chainId and verifyingContract (usdc) complete it */
            usdcDomain: {
                name: string;
                version: string;
            };
            confirmations: number;
        };
        LedgerEntry: {
            /** @description Stable: funding-…, release-…, remainder-…, refund-…, returned-…, withdrawal-… */
            id: string;
            /** @enum {string} */
            kind: "funding" | "release" | "refund" | "withdrawal";
            reason: ("remainder" | "cancel" | "expired" | "returned") | null;
            /** @enum {string} */
            role: "brand" | "creator" | "account";
            /** Format: date-time */
            date: string;
            deal: {
                /** Format: uuid */
                id: string;
                title: string;
            } | null;
            milestone: {
                /** Format: uuid */
                id: string;
                position: number;
                title: string;
            } | null;
            /** @description USDC, 6 decimal places */
            amount: string;
            amountUnits: string;
            /** @constant */
            currency: "USDC";
            from: string | null;
            to: string | null;
            counterparty: {
                address: string | null;
                name: string | null;
            };
            chainId: number | null;
            txHash: string | null;
            explorerUrl: string | null;
            verdictHash: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    postAuthSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    idToken: string;
                    /** @enum {string} */
                    profileType?: "creator" | "organization";
                };
            };
        };
        responses: {
            /** @description { user, token, expiresAt } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["User"];
                        /** @description The session token, for Authorization: Bearer */
                        token: string;
                        /** Format: date-time */
                        expiresAt: string;
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 account_exists (the token's e-mail belongs to an account made another way: sign in that way, then link this one from the profile) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured | unavailable (the identity provider) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAuthSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { signedOut: true } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        signedOut: true;
                    };
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: sign out with the session) | csrf_rejected (cookie from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 unavailable (the identity provider's keys, for an identity token) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthIdentities: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { methods, canLink } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        methods: components["schemas"]["SignInMethod"][];
                        canLink: {
                            /** @description The OpenID provider's name when it is configured and not linked yet */
                            oidc: string | null;
                            /** @description An e-mail address can be added (accounts made by a wallet alone have none) */
                            email: boolean;
                        };
                    };
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { user } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["User"];
                    };
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthRole: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    profileType: "creator" | "organization";
                };
            };
        };
        responses: {
            /** @description { user } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["User"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthWalletNonce: {
        parameters: {
            query?: {
                address?: string;
                chainId?: number;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { nonce, issuedAt, expiresAt, domain, uri, statement, chainId, message? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletNonce"];
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthWallet: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example 0x5B38Da6a701c568545dCfcB03FcB875f56beddC4 */
                    address: string;
                    message: string;
                    signature: string;
                };
            };
        };
        responses: {
            /** @description { user } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: components["schemas"]["User"];
                    };
                };
            };
            /** @description 400 invalid_request (the message: malformed, another domain or address, expired; the nonce: unknown, used or expired); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 invalid_signature; 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 wallet_taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeals: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                open?: "0" | "1" | "true" | "false";
                status?: "unfunded" | "open" | "active" | "completed" | "cancelled" | "expired";
                platform?: "instagram" | "tiktok" | "x" | "youtube" | "other";
                search?: string;
                sort?: "newest" | "oldest" | "budget";
                metadata?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { deals, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deals: components["schemas"]["Deal"][];
                        /** @description Pass as ?cursor= for the next page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 wrong_role (open=1 as brand); 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDeals: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    /** @default  */
                    description?: string;
                    /**
                     * @default other
                     * @enum {string}
                     */
                    platform?: "instagram" | "tiktok" | "x" | "youtube" | "other";
                    /** @default 0.5 */
                    minScore?: number;
                    /**
                     * @description The confidence a verdict needs to settle on its own, 0.5–1 (default 0.9, chosen on the eval): below it POST /api/settle answers 409 needs_decision and the brand decides instead of an automatic payment or rejection
                     * @default 0.9
                     */
                    autoSettleConfidence?: number;
                    /** Format: email */
                    creatorEmail?: string;
                    /** Format: date-time */
                    deadline?: string;
                    /** @default 7 */
                    reviewWindowDays?: number;
                    /**
                     * @default {
                     *       "required": true
                     *     }
                     */
                    disclosure?: {
                        /** @description true: every post must carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the platform's paid-partnership label; the verifier lists it under `missing` otherwise */
                        required: boolean;
                        /** @description Required when `required` is false, refused otherwise: why this deal's posts need no disclosure (e.g. they go on the brand's own account). Shown to the creator with the deal's terms */
                        reason?: string;
                    };
                    milestones: {
                        title: string;
                        amount: number;
                        requirements?: {
                            hashtags?: string[];
                            mentions?: string[];
                            /** @default [] */
                            links?: string[];
                            /** @default [] */
                            criteria?: string[];
                        };
                        dueAt?: string | null;
                        /** @description Your own key-value pairs (at most 20; keys up to 40 characters of A-Za-z0-9_.-, values up to 500 characters) */
                        metadata?: {
                            [key: string]: string;
                        };
                    }[];
                    /** @description Your own key-value pairs (at most 20; keys up to 40 characters of A-Za-z0-9_.-, values up to 500 characters) */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description { deal } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deal: components["schemas"]["Deal"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 wrong_role; 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProfile: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { profile } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        profile: components["schemas"]["Profile"];
                    };
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (the user was deleted) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchProfile: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    displayName: string | null;
                };
            };
        };
        responses: {
            /** @description { profile } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        profile: components["schemas"]["Profile"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (the user was deleted) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDealsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { deal } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deal: components["schemas"]["DealDetail"];
                    };
                };
            };
            /** @description 400 invalid_request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchDealsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    description?: string;
                    /** @enum {string} */
                    platform?: "instagram" | "tiktok" | "x" | "youtube" | "other";
                    minScore?: number;
                    /** @description The confidence a verdict needs to settle on its own, 0.5–1 (default 0.9, chosen on the eval): below it POST /api/settle answers 409 needs_decision and the brand decides instead of an automatic payment or rejection */
                    autoSettleConfidence?: number;
                    creatorEmail?: string | null;
                    /** Format: date-time */
                    deadline?: string;
                    reviewWindowDays?: number;
                    disclosure?: {
                        /** @description true: every post must carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the platform's paid-partnership label; the verifier lists it under `missing` otherwise */
                        required: boolean;
                        /** @description Required when `required` is false, refused otherwise: why this deal's posts need no disclosure (e.g. they go on the brand's own account). Shown to the creator with the deal's terms */
                        reason?: string;
                    };
                    milestones?: {
                        title: string;
                        amount: number;
                        requirements?: {
                            hashtags?: string[];
                            mentions?: string[];
                            /** @default [] */
                            links?: string[];
                            /** @default [] */
                            criteria?: string[];
                        };
                        dueAt?: string | null;
                    }[];
                    /** @description Pairs merged into the stored metadata; a key sent with "" is removed */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description { deal } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deal: components["schemas"]["Deal"];
                    };
                };
            };
            /** @description 400 invalid_request; 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (the deal's creator or a creator it is offered to); 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 deal_not_editable (taken, cancelled, completed or expired) | terms_locked (funded: amounts, milestone count, deadline) | invalid_state (the escrow holds other terms) | funding_in_progress (a relayed funding holds the deal: amounts and deadline wait) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable (unfunded: the escrow could not be read) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdAccept: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The deal's termsVersion the creator reviewed: if the brand has edited the deal since, 409 terms_changed */
                    termsVersion?: number;
                };
            };
        };
        responses: {
            /** @description { deal } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deal: components["schemas"]["Deal"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 wrong_role | forbidden; 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (taken, or cancelled by the brand) | wallet_required | terms_changed (the brand edited the deal after that termsVersion) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable (retry finishes the on-chain assignment) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDealsByIdEvents: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { events, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: components["schemas"]["DealEvent"][];
                        /** @description Pass as ?cursor= for the next page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (not a party) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDealsByIdMessages: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { messages, nextCursor, unreadCount } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first */
                        messages: components["schemas"]["Message"][];
                        /** @description Pass as ?cursor= for the next page */
                        nextCursor: string | null;
                        /** @description The other party's messages the caller has not marked read */
                        unreadCount: number;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (not a party) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdMessages: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                };
                "multipart/form-data": {
                    body: string;
                    /**
                     * Format: binary
                     * @description A file (binary): JPEG, PNG or WebP image, MP4, MOV or WebM video; its real type is read from its bytes, metadata is removed
                     */
                    file?: string;
                };
            };
        };
        responses: {
            /** @description { message } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: components["schemas"]["Message"];
                    };
                };
            };
            /** @description 400 invalid_request (an empty or over-long body); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (not a party) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (nobody has taken the deal yet) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (past the limit of the file's kind) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a type not accepted, or a file whose bytes contradict its declared type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDealsByIdBonuses: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { bonuses, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bonuses: components["schemas"]["Bonus"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (not a party) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdBonuses: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example 5000000 */
                    amount: string;
                    /** @example Thank you: the launch post did great. */
                    message: string;
                };
            };
        };
        responses: {
            /** @description { bonus } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bonus: components["schemas"]["Bonus"];
                    };
                };
            };
            /** @description 400 invalid_request (amount not a whole number of base units, zero, or over 1,000,000 USDC; message empty or over 1,000 characters; a malformed Idempotency-Key); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (the creator: only the brand sends a bonus); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (not a party) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (no milestone of the deal is paid yet, or nobody took the deal) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDealsByIdBonusesByBonusId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
                bonusId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { bonus } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bonus: components["schemas"]["Bonus"];
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdBonusesByBonusIdRelease: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
                bonusId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { bonus, poll? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bonus: components["schemas"]["Bonus"];
                        /** @description 202 only: the bonus's URL, to GET until it is paid */
                        poll?: string;
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 not_funded (the escrow holds nothing for the bonus yet) | invalid_state (cancelled, or its money went back to the brand) | settlement_in_progress (another call is paying it right now) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable (nothing lost: call again) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDealsByIdMessagesByMessageIdAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file's bytes, in its stored type (image/jpeg, image/png, image/webp, video/mp4, video/quicktime or video/webm) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (not a party, no such message, or no file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdMessagesRead: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    upTo?: string;
                };
            };
        };
        responses: {
            /** @description { unreadCount } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        unreadCount: number;
                    };
                };
            };
            /** @description 400 invalid_request; 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (not a party, or upTo is not a message of this deal) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvents: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                /** @description Only events of this type */
                type?: "created" | "edited" | "funded" | "taken" | "submitted" | "verified" | "rejected" | "approved" | "paid" | "refunded" | "cancelled" | "expired" | "completed" | "appealed" | "decided" | "overdue" | "review_window_elapsed" | "deposit.received" | "funding.returned" | "draft.submitted" | "draft.approved" | "draft.changes_requested" | "milestone.changes_requested" | "message.created" | "bonus.funded" | "bonus.paid";
                /** @description Only events about this deal (and its milestones) or milestone */
                object?: string;
                /** @description desc: newest first (browse). asc: oldest first (replay, follow) */
                order?: "desc" | "asc";
                /** @description asc: start after this event (instead of a cursor) */
                after?: string;
                /** @description asc: with nothing new yet, wait up to this many seconds for an event (long-poll) */
                wait?: number;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { events, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: components["schemas"]["Event"][];
                        /** @description desc: the next (older) page, null at the end. asc: where to continue from, always set */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (after: no such event of yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDealsByIdFunding: {
        parameters: {
            query?: {
                brand?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { funding } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        funding: components["schemas"]["FundingTerms"];
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (no escrow or USDC on this chain) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdFunding: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    txHash?: string;
                    brand?: string;
                };
            };
        };
        responses: {
            /** @description { deal } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deal: components["schemas"]["Deal"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 not_funded | invalid_state (funded with other terms) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdFundingDeposit: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refundAddress?: string;
                };
            };
        };
        responses: {
            /** @description { deposit } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deposit: components["schemas"]["Deposit"];
                    };
                };
            };
            /** @description 400 invalid_request (refundAddress: not an address, a mixed-case address with a wrong EIP-55 checksum, the zero address, the escrow, the deposit factory, the USDC token or the deal's own deposit address); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 wallet_required (no refundAddress and no wallet on the account) | invalid_state (the address already holds money, or the deal is past funding) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (no deposit factory on this chain) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdFundingAuthorization: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    brand: string;
                    /** @default 0 */
                    validAfter?: number;
                    validBefore: number;
                    signature: string;
                };
            };
        };
        responses: {
            /** @description { deal, funding?, poll? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deal: components["schemas"]["Deal"];
                        /** @description 202 only: the relayed funding, sent and not yet confirmed */
                        funding?: {
                            /** @constant */
                            status: "submitted";
                            /** @description The relayer's transaction (null when an external relayer holds it) */
                            txHash: string | null;
                        };
                        /** @description 202 only: the funding is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; the deal's URL, whose status turns open */
                        poll?: string;
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 invalid_signature (malformed, or refused by the escrow and nothing was moved; an authorization that funded the deal answers 200 on every retry); 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (funded with other terms; or cancelled, nothing sent) | funding_in_progress (another wallet's funding holds the deal) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable (the node did not answer; retrying is safe: the authorization moves money once) | relay_unavailable */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (no relayer) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdCancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    txHash?: string;
                };
            };
        };
        responses: {
            /** @description { deal } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deal: components["schemas"]["Deal"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (taken; or not yet cancelled on-chain — details say what to call) | funding_in_progress (a relayed funding holds the deal until it is settled) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDealsByIdRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { deal } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deal: components["schemas"]["Deal"];
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (too early) | not_funded */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFaucetTestUsdc: {
        parameters: {
            query: {
                address: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { address, amount, txHash, explorerUrl, status, poll? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestFunds"];
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 faucet_disabled (not the local chain); 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (no mint there by this caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postFaucetTestUsdc: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example 0x5B38Da6a701c568545dCfcB03FcB875f56beddC4 */
                    address: string;
                };
            };
        };
        responses: {
            /** @description { address, amount, txHash, explorerUrl, status, poll? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestFunds"];
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 faucet_disabled (not the local chain); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMilestonesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { milestone } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        milestone: components["schemas"]["MilestoneDetail"];
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchMilestonesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Pairs merged into the stored metadata; a key sent with "" is removed */
                    metadata: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description { milestone } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        milestone: components["schemas"]["MilestoneDetail"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (the deal's creator); 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMilestonesByIdDeliverable: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    url: string;
                    /** @default  */
                    text?: string;
                    /** @default  */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description { milestone } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        milestone: components["schemas"]["MilestoneDetail"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the deal's creator); 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state | evidence_already_used (the post is already another milestone's deliverable; a post can be paid once) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postVerify: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    milestoneId: string;
                };
            };
        };
        responses: {
            /** @description { approved, score, reasoning, missing, model, verifier, deductions, confidence, revision, verifiedAt } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Verdict"];
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 no_deliverable | invalid_state | changes_requested (the brand sent this revision back) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 verifier_unavailable */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSettle: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    milestoneId: string;
                    /**
                     * @default direct
                     * @enum {string}
                     */
                    via?: "direct" | "relay" | "relayer";
                    minScore?: number;
                } | {
                    /**
                     * @example [
                     *       "0b7f6d1e-3c2a-4f5b-9d8e-1a2b3c4d5e6f"
                     *     ]
                     */
                    milestoneIds: string[];
                    /**
                     * @default direct
                     * @enum {string}
                     */
                    via?: "direct" | "relay" | "relayer";
                    minScore?: number;
                };
            };
        };
        responses: {
            /** @description { outcome: "paid", milestone, verdict, settlement } | { outcome: "rejected", milestone, verdict } | { outcome: "submitted", milestone, verdict, settlement, poll } | { results } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        /** @constant */
                        outcome: "paid";
                        milestone: components["schemas"]["MilestoneDetail"];
                        verdict: components["schemas"]["Verdict"];
                        settlement: components["schemas"]["Settlement"];
                    } | {
                        /** @constant */
                        outcome: "rejected";
                        milestone: components["schemas"]["MilestoneDetail"];
                        verdict: components["schemas"]["Verdict"];
                    } | {
                        /**
                         * @description 202: the release is sent, the chain has not confirmed it within the budget
                         * @constant
                         */
                        outcome: "submitted";
                        milestone: components["schemas"]["MilestoneDetail"];
                        verdict: components["schemas"]["Verdict"];
                        settlement: components["schemas"]["Settlement"];
                        /** @description The milestone's URL: its settlement turns confirmed */
                        poll: string;
                    }) | {
                        /** @description One per milestoneId, in the request's order */
                        results: {
                            milestoneId: string;
                            /**
                             * @description paid | submitted (sent, not confirmed within the budget, or the node failed after the transfer was recorded: poll) | rejected (the gate failed) | already_paid | refused (see error: not_found, forbidden, needs_decision, review_window_open, no_deliverable, settlement_in_progress, …)
                             * @enum {string}
                             */
                            outcome: "paid" | "submitted" | "rejected" | "already_paid" | "refused";
                            settlement?: components["schemas"]["Settlement"];
                            /** @description submitted only: the milestone's URL */
                            poll?: string;
                            /** @description refused only: what the single form would have answered */
                            error?: {
                                code: string;
                                message: string;
                            };
                        }[];
                    };
                };
            };
            /** @description 400 invalid_request (a malformed Idempotency-Key; bulk: no ids, more than 100, an id named twice, an id not a UUID); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (the creator may settle only after the review window; never with minScore); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 no_deliverable | changes_requested (the brand sent the revision back; settle the next one) | already_settled | settlement_in_progress | not_funded | invalid_state | review_window_open | evidence_already_used (the post, or its canonical URL, was paid for another milestone) | needs_decision (the brand's settle only: the verdict's confidence is below the deal's `autoSettleConfidence`, or a criterion nobody judged; details { confidence, threshold, verdict }: the brand decides) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 422 idempotency_key_reused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 verifier_unavailable | chain_unavailable (nothing was sent) | relay_unavailable (retry resumes) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (relay) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMilestonesByIdDecision: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    approve: boolean;
                    score?: number;
                    reason: string;
                    /**
                     * @default direct
                     * @enum {string}
                     */
                    via?: "direct" | "relay";
                };
            };
        };
        responses: {
            /** @description { milestone, settlement, poll? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        milestone: components["schemas"]["MilestoneDetail"];
                        settlement: components["schemas"]["Settlement"] | null;
                        /** @description 202 only: the release is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; the milestone's URL, whose settlement turns confirmed */
                        poll?: string;
                    };
                };
            };
            /** @description 400 invalid_request (score required to approve, 0 < score ≤ 1; reason of 3+ characters; a malformed Idempotency-Key); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 already_decided | already_settled | settlement_in_progress | no_deliverable | changes_requested | invalid_state | evidence_already_used */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 422 idempotency_key_reused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable | relay_unavailable (decision kept; the payment resumes) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (relay) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMilestonesByIdAppeal: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description { appeal, milestone } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        appeal: components["schemas"]["Appeal"];
                        milestone: components["schemas"]["MilestoneDetail"];
                    };
                };
            };
            /** @description 400 invalid_request; 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the creator); 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 appeal_exists | already_decided | invalid_state (only a rejection can be appealed) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUploads: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "image/jpeg" | "image/png" | "image/webp" | "video/mp4" | "video/quicktime" | "video/webm";
                    /** @description The file's size in bytes: the URL takes exactly this many */
                    size: number;
                };
            };
        };
        responses: {
            /** @description { upload } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadTicket"];
                };
            };
            /** @description 400 invalid_request (a type not accepted; size a positive whole number); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (past the limit of the type's kind) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (uploads are kept on the server's disk: send the file in the form) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMilestonesByIdDrafts: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { drafts, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        drafts: components["schemas"]["Draft"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMilestonesByIdDrafts: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    caption: string;
                    /**
                     * Format: uri
                     * @description The media as a link (a preview on a drive, an unlisted video) instead of a file
                     */
                    link?: string;
                    /** @description A file sent straight to storage (POST /api/uploads), instead of a form upload */
                    upload?: string;
                    /** @description With `upload`: the file's name as the creator knows it, shown to the brand */
                    uploadName?: string;
                };
                "multipart/form-data": {
                    caption: string;
                    /**
                     * Format: uri
                     * @description The media as a link (a preview on a drive, an unlisted video) instead of a file
                     */
                    link?: string;
                    /**
                     * Format: binary
                     * @description The media file (binary): image/jpeg, image/png, image/webp, video/mp4, video/quicktime, video/webm; its real type is read from its bytes, metadata is removed
                     */
                    file?: string;
                };
            };
        };
        responses: {
            /** @description { draft } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        draft: components["schemas"]["Draft"];
                    };
                };
            };
            /** @description 400 invalid_request (caption 1–5000 characters, link an http or https URL, the media one way only, an `upload` that is not the caller's or was never sent); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the creator); 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (the deal is not active, or the post is already submitted) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (past the limit of the file's kind) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a type not accepted, or a file whose bytes contradict its declared type) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMilestonesByIdDraftsByDraftId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
                draftId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { draft } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        draft: components["schemas"]["Draft"];
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMilestonesByIdDraftsByDraftIdMedia: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
                draftId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file's bytes, in its stored type (image/jpeg, image/png, image/webp, video/mp4, video/quicktime or video/webm) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (no such draft, no file, or not a party) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMilestonesByIdDraftsByDraftIdApprove: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
                draftId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { draft } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        draft: components["schemas"]["Draft"];
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (changes were requested on it, or a newer revision replaced it; the deal is not active) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMilestonesByIdDraftsByDraftIdRequestChanges: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
                draftId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    message: string;
                };
            };
        };
        responses: {
            /** @description { draft } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        draft: components["schemas"]["Draft"];
                    };
                };
            };
            /** @description 400 invalid_request (a message of 3–2000 characters); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (already approved, or replaced by a newer revision; the deal is not active) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMilestonesByIdRequestChanges: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    message: string;
                };
            };
        };
        responses: {
            /** @description { changeRequest, milestone } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        changeRequest: components["schemas"]["ChangeRequest"];
                        milestone: components["schemas"]["MilestoneDetail"];
                    };
                };
            };
            /** @description 400 invalid_request (an empty or over-long message; a malformed Idempotency-Key); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 changes_already_requested | already_settled | settlement_in_progress | no_deliverable | invalid_state (rejected, or the deal is not active) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 422 idempotency_key_reused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMilestonesByIdRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string;
                    /**
                     * @default direct
                     * @enum {string}
                     */
                    via?: "direct" | "relay";
                };
            };
        };
        responses: {
            /** @description { milestone, settlement, poll? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        milestone: components["schemas"]["MilestoneDetail"];
                        settlement: components["schemas"]["Settlement"] | null;
                        /** @description 202 only: the release is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; the milestone's URL, whose settlement turns confirmed */
                        poll?: string;
                    };
                };
            };
            /** @description 400 invalid_request (a malformed Idempotency-Key); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the brand); 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (not overdue, or delivered) | settlement_in_progress | already_settled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 422 idempotency_key_reused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable | relay_unavailable (retry resumes) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (relay) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRelayStatus: {
        parameters: {
            query?: {
                /** @description The chain to ask about (default: this deployment's) */
                chainId?: number;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { configured, provider, chainId, supported, sponsor?, reason? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelayStatus"];
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFaucetDrip: {
        parameters: {
            query: {
                address: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { funded, amount, txHash, reason?, address, chainId, status, explorerUrl, poll? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Drip"];
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (no drip for this caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 conflict (its transfer is being recorded right now; retry) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postFaucetDrip: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example 0x5B38Da6a701c568545dCfcB03FcB875f56beddC4 */
                    address: string;
                };
            };
        };
        responses: {
            /** @description { funded, amount, txHash, reason?, address, chainId, status, explorerUrl, poll? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Drip"];
                };
            };
            /** @description 400 invalid_request (the zero address); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 faucet_disabled; 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 conflict (busy with this address; retry) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable (retry resumes) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured | unavailable (treasury empty) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWallet: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { chainId, network, networkName, token, wallets, canSend, withdrawals } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletOverview"];
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWalletWithdrawals: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where the USDC goes: a wallet or an exchange deposit address on this network (EIP-55 checksum checked when mixed case) */
                    to: string;
                    /** @description USDC as a decimal string, e.g. "25" or "12.345678" */
                    amount: string;
                };
            };
        };
        responses: {
            /** @description { withdrawal } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        withdrawal: components["schemas"]["Withdrawal"];
                    };
                };
            };
            /** @description 400 invalid_request (to: bad checksum, the zero address, your own wallet, or one of the service's contracts; amount not above 0); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the settle scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 wallet_required (no embedded wallet) | insufficient_funds (details.available) | settlement_in_progress (same Idempotency-Key still running) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 422 idempotency_key_reused */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable (refused: nothing was sent; retry) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (no embedded-wallet signer or relayer key) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReputationByWallet: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                wallet: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { wallet, chainId, registry, count, score } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reputation"];
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (no registry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDemoUnlock: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    passphrase?: string;
                    /** @description Alias of passphrase (the original interface) */
                    code?: string;
                };
            };
        };
        responses: {
            /** @description { unlocked: true } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        unlocked: true;
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 invalid_passphrase */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (no demo gate) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (attempts per client) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDemoEnsureDeals: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { created, deals } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description 0: they existed already (200) */
                        created: number;
                        deals: components["schemas"]["Deal"][];
                    };
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 wrong_role; 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: {
                /** @description 1: also queue depths and the signer's balance (needs the cron secret as bearer) */
                detail?: "0" | "1";
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { ok: true, db: "ok", chain, degraded?, detail? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        ok: true;
                        /** @constant */
                        db: "ok";
                        chain: {
                            chainId: number;
                            blockNumber: number;
                            name: string;
                        };
                        /** @description Up, but a transaction has waited to be mined longer than TX_STUCK_ALERT_SECONDS */
                        degraded?: {
                            stuckTransaction: {
                                id: string;
                                purpose: string;
                                ageSeconds: number;
                            };
                        };
                        /** @description With ?detail=1 and the cron secret: for operators */
                        detail?: {
                            queues: {
                                /** @description E-mails waiting to be sent */
                                outbox: number;
                                /** @description Webhook deliveries waiting */
                                webhooks: number;
                                /** @description Transactions not mined yet */
                                pendingTransactions: number;
                                oldestPendingSeconds: number | null;
                            };
                            signer: {
                                address: string;
                                balanceWei: string;
                                /** @description SIGNER_BALANCE_FLOOR_WEI */
                                floorWei: string;
                                belowFloor: boolean;
                            } | null;
                        };
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated (detail=1 without the cron secret) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 unavailable (details name what is down) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCronReconcile: {
        parameters: {
            query?: {
                /** @description Finish just this settlement */
                settlement?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { settlements, reputations, escrow, transactions, outbox?, timers?, expiredIdempotencyKeys?, deposits? } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        settlements: {
                            confirmed: number;
                            stillPending: number;
                            busy: number;
                            failed: number;
                        };
                        reputations: number;
                        escrow: {
                            funded: number;
                            assigned: number;
                            closed: number;
                            failed: number;
                            /** @description Funded bonuses paid by this run */
                            bonusesPaid: number;
                        };
                        transactions: {
                            confirmed: number;
                            failed: number;
                            stillPending: number;
                        };
                        outbox?: {
                            webhooks: {
                                retrying: number;
                                failed: number;
                                delivered: number;
                            };
                            emails: {
                                retrying: number;
                                failed: number;
                                sent: number;
                            };
                        };
                        timers?: {
                            reviewWindowsElapsed: number;
                            overdue: number;
                        };
                        /** @description Idempotency keys past their 24 hours, deleted; full runs only */
                        expiredIdempotencyKeys?: number;
                        deposits?: {
                            received: number;
                            swept: number;
                            returned: number;
                            failed: number;
                        };
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated (no or another cron secret) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (CRON_SECRET) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { openapi: "3.1.0" } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNotifications: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                /** @description Only unread ones */
                unread?: "0" | "1" | "true" | "false";
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { notifications, nextCursor, unreadCount } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        notifications: components["schemas"]["Notification"][];
                        /** @description Pass as ?cursor= for the next page */
                        nextCursor: string | null;
                        unreadCount: number;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNotificationsUnread: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { unreadCount } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        unreadCount: number;
                    };
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postNotificationsRead: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids: string[];
                } | {
                    /** @constant */
                    all: true;
                };
            };
        };
        responses: {
            /** @description { marked, unreadCount } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description How many were unread and are now read */
                        marked: number;
                        unreadCount: number;
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { endpoints, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoints: components["schemas"]["WebhookEndpoint"][];
                        /** @description Pass as ?cursor= for the next page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the webhooks scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description https URL on a public address that receives the events (a deployment's FETCH_ALLOWED_HOSTS may exempt local receivers, e.g. http://127.0.0.1:4000) */
                    url: string;
                    /** @description Event types to deliver; empty or omitted = all */
                    eventTypes?: ("created" | "edited" | "funded" | "taken" | "submitted" | "verified" | "rejected" | "approved" | "paid" | "refunded" | "cancelled" | "expired" | "completed" | "appealed" | "decided" | "overdue" | "review_window_elapsed" | "deposit.received" | "funding.returned" | "draft.submitted" | "draft.approved" | "draft.changes_requested" | "milestone.changes_requested" | "message.created" | "bonus.funded" | "bonus.paid")[];
                    /** @description Your own key-value pairs (at most 20; keys up to 40 characters of A-Za-z0-9_.-, values up to 500 characters) */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description { endpoint, secret } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                        /** @description The signing secret: shown in this answer only */
                        secret: string;
                    };
                };
            };
            /** @description 400 invalid_request (incl. a private or non-https URL); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the webhooks scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 conflict (20 endpoints) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { endpoint } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the webhooks scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { deleted: true } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the webhooks scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url?: string;
                    /** @description Event types to deliver; empty or omitted = all */
                    eventTypes?: ("created" | "edited" | "funded" | "taken" | "submitted" | "verified" | "rejected" | "approved" | "paid" | "refunded" | "cancelled" | "expired" | "completed" | "appealed" | "decided" | "overdue" | "review_window_elapsed" | "deposit.received" | "funding.returned" | "draft.submitted" | "draft.approved" | "draft.changes_requested" | "milestone.changes_requested" | "message.created" | "bonus.funded" | "bonus.paid")[];
                    enabled?: boolean;
                    /** @description Pairs merged into the stored metadata; a key sent with "" is removed */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description { endpoint } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description 400 invalid_request (incl. a private or non-https URL); 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the webhooks scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksByIdRotateSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { endpoint, secret } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                        /** @description The signing secret: shown in this answer only */
                        secret: string;
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the webhooks scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksByIdDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { deliveries, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: components["schemas"]["WebhookDelivery"][];
                        /** @description Pass as ?cursor= for the next page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the webhooks scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksByIdDeliveriesByDeliveryIdResend: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { delivery } */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the webhooks scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (endpoint or delivery) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (the endpoint is disabled, or the delivery is being sent right now) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksByIdTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The event type to send (any, subscribed or not)
                     * @enum {string}
                     */
                    type: "created" | "edited" | "funded" | "taken" | "submitted" | "verified" | "rejected" | "approved" | "paid" | "refunded" | "cancelled" | "expired" | "completed" | "appealed" | "decided" | "overdue" | "review_window_elapsed" | "deposit.received" | "funding.returned" | "draft.submitted" | "draft.approved" | "draft.changes_requested" | "milestone.changes_requested" | "message.created" | "bonus.funded" | "bonus.paid";
                };
            };
        };
        responses: {
            /** @description { delivery } */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the webhooks scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (the endpoint is disabled) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getKeys: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { keys, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: components["schemas"]["ApiKey"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postKeys: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    scopes: ("read" | "write" | "settle" | "webhooks")[];
                    /** Format: date-time */
                    expiresAt?: string;
                    /**
                     * @description The API version the key's requests are answered in unless one sends Milestone-Version (default: the current one, 2026-11-24)
                     * @enum {string}
                     */
                    apiVersion?: "2026-11-24" | "2026-06-01";
                    /** @description Your own key-value pairs (at most 20; keys up to 40 characters of A-Za-z0-9_.-, values up to 500 characters) */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description { key, apiKey } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key itself: shown in this response only */
                        key: string;
                        apiKey: components["schemas"]["ApiKey"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteKeysById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { apiKey } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        apiKey: components["schemas"]["ApiKey"];
                    };
                };
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchKeysById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /**
                     * @description The API version the key's requests are answered in unless one sends Milestone-Version (default: the current one, 2026-11-24)
                     * @enum {string}
                     */
                    apiVersion?: "2026-11-24" | "2026-06-01";
                    /** @description Pairs merged into the stored metadata; a key sent with "" is removed */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description { apiKey } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        apiKey: components["schemas"]["ApiKey"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMilestonesByIdEvidence: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                /** @description Only this revision's evidence */
                revision?: number;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { evidence, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        evidence: components["schemas"]["Evidence"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (not a party) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMilestonesByIdPrecheck: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    url: string;
                };
            };
        };
        responses: {
            /** @description { ready, missing, requirements, score, deductions, criteria, minScore, post } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Precheck"];
                };
            };
            /** @description 400 invalid_request; 400 invalid_json (the body) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (not the creator); 403 insufficient_scope (an API key without the read scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 invalid_state (the deal is not active) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProfileHandles: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { handles } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        handles: components["schemas"]["Handle"][];
                    };
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putProfileHandles: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    platform: "instagram" | "tiktok" | "x" | "youtube" | "sandbox";
                    handle: string;
                };
            };
        };
        responses: {
            /** @description { handle } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        handle: components["schemas"]["Handle"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 conflict (held by another account: verified by it, or on the sandbox declared by it) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteProfileHandles: {
        parameters: {
            query: {
                platform: "instagram" | "tiktok" | "x" | "youtube" | "sandbox";
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postProfileHandlesVerify: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    platform: "instagram" | "tiktok" | "x" | "youtube" | "sandbox";
                    handle: string;
                    /** @description A post by the handle whose text contains the handle's verification code */
                    postUrl: string;
                };
            };
        };
        responses: {
            /** @description { handle } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        handle: components["schemas"]["Handle"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 forbidden (an API key or identity token: account and session management needs a session); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (no such declared handle) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 conflict (another account verified it meanwhile); 409 handle_unverified (details.reason: no_code | code_expired | post_unreadable | wrong_platform | wrong_author | code_missing | changed) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSocialPosts: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { posts, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        posts: components["schemas"]["SandboxPost"][];
                        /** @description Pass as ?cursor= for the next page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (sandbox off) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSocialPosts: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    handle: string;
                    caption: string;
                    /**
                     * @default video
                     * @enum {string}
                     */
                    mediaType?: "video" | "photo" | "story";
                    /** @default false */
                    paidPartnership?: boolean;
                };
            };
        };
        responses: {
            /** @description { post } */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        post: components["schemas"]["SandboxPost"];
                    };
                };
            };
            /** @description 400 invalid_json | invalid_request (the body); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (sandbox off) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 409 conflict (handle) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 413 payload_too_large (over 64 KiB) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 415 unsupported_media_type (a body not sent as application/json) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSocialPostsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description 400 invalid_request (the path); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the write scope); 403 csrf_rejected (the session cookie, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSocialOembed: {
        parameters: {
            query: {
                url: string;
                format?: "json";
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { version: "1.0", type, provider_name, provider_url, url, title, author_name, author_url, media_type, paid_partnership, published_at, thumbnail_url } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OEmbed"];
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 404 not_found (sandbox off, unknown or deleted post) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChain: {
        parameters: {
            query?: never;
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { chainId, name, rpcUrl, usdc, escrow, usdcDomain, confirmations } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChainInfo"];
                };
            };
            /** @description 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 502 chain_unavailable (reading the token's domain) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 503 not_configured (no USDC or escrow on this deployment) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLedger: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                /** @description funding | release | refund | withdrawal */
                kind?: "funding" | "release" | "refund" | "withdrawal";
                /** @description Only this deal's entries */
                dealId?: string;
                /** @description On or after (a date is its start, UTC) */
                from?: string;
                /** @description On or before (a date includes the whole day, UTC) */
                to?: string;
                /** @description csv: the whole filtered ledger as CSV */
                format?: "json" | "csv";
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description { entries, nextCursor } */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: components["schemas"]["LedgerEntry"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLedgerCsv: {
        parameters: {
            query?: {
                /** @description funding | release | refund | withdrawal */
                kind?: "funding" | "release" | "refund" | "withdrawal";
                /** @description Only this deal's entries */
                dealId?: string;
                /** @description On or after (a date is its start, UTC) */
                from?: string;
                /** @description On or before (a date includes the whole day, UTC) */
                to?: string;
            };
            header?: {
                /** @description The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (2026-11-24). An unknown version is refused with 400 invalid_request. */
                "Milestone-Version"?: "2026-11-24" | "2026-06-01";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/csv (RFC 4180, CRLF), header row: date,id,kind,reason,role,deal_id,deal,milestone,amount,currency,from,to,counterparty,counterparty_name,chain_id,tx_hash,explorer_url,verdict_hash */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description 400 invalid_request (the query); 400 invalid_request (an unknown Milestone-Version header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 401 unauthenticated | invalid_token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 403 insufficient_scope (an API key without the read scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 429 rate_limited (per API key and per user) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description 500 internal */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
