import type { ReactNode } from "react";
import { approveAndFund, gaslessModule, gaslessRun } from "@/components/docs/funding-snippet";

// /docs: funding a deal, for an integrator — the chain facts (GET /api/chain), the deal's
// terms (GET /api/deals/:id/funding), then the three ways in: a deposit address (no wallet),
// a signed authorization (no network fee) and approve + fund. The examples are
// components/docs/funding-snippet.ts, which test/docs/funding-snippet.test.ts runs.

function Code({ children }: { children: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe scrollable-region-focusable)
    <pre className="mono small scroll-x" tabIndex={0}>
      {children}
    </pre>
  );
}

function Field({ name, children }: { name: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row">
        <code>{name}</code>
      </th>
      <td>{children}</td>
    </tr>
  );
}

export function FundingDocs() {
  return (
    <section className="card stack" aria-labelledby="funding">
      <h2 id="funding">Funding a deal</h2>
      <p className="small">
        A deal opens once the escrow holds its budget, under the key of the wallet that funded it.
        There are three ways in; all of them start from the same two answers.
      </p>
      <nav aria-label="Funding" className="doc-toc small">
        <ul>
          <li>
            <a href="#funding-chain">Chain and terms</a>
          </li>
          <li>
            <a href="#funding-deposit">Deposit address</a>
          </li>
          <li>
            <a href="#funding-gasless">Signed authorization (gasless)</a>
          </li>
          <li>
            <a href="#funding-direct">Approve + fund</a>
          </li>
        </ul>
      </nav>

      <h3 id="funding-chain">1. The chain and the deal&apos;s terms</h3>
      <p className="small">
        <code>GET /api/chain</code> (no credential) answers{" "}
        <code>
          {"{ chainId, name, rpcUrl, usdc, escrow, usdcDomain: { name, version }, confirmations }"}
        </code>
        : a public RPC endpoint, the USDC and escrow addresses, USDC&apos;s EIP-712 domain as the
        token itself reports it, and how many confirmations the service waits for.{" "}
        <code>GET /api/deals/:id/funding?brand=0x…</code> (read scope; the deal&apos;s brand only)
        answers the terms for the wallet that will pay:
      </p>
      <div className="table-scroll">
        <table className="simple small">
          <caption className="visually-hidden">Fields of GET /api/deals/:id/funding</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            <Field name="dealRef">
              The deal as the escrow names it: 16 zero bytes, then the deal&apos;s UUID (bytes32).
            </Field>
            <Field name="dealKey">
              Where the escrow stores it: <code>keccak256(abi.encode(funder, dealRef))</code>. Keyed
              by the funder, so nobody else can fund, cancel or squat your deal.
            </Field>
            <Field name="evaluator">The service&apos;s address, which releases milestones.</Field>
            <Field name="deadline">
              Unix seconds; after it plus <code>graceSeconds</code> unreleased money can be
              refunded.
            </Field>
            <Field name="amounts">
              Milestone amounts in USDC base units (6 decimals), in order; <code>totalUnits</code>{" "}
              is their sum, <code>total</code> the same in USDC.
            </Field>
            <Field name="authorizationNonce">
              With <code>?brand=</code>: the nonce a signed authorization from that wallet must
              carry.
            </Field>
            <Field name="deposit">
              The deposit address block (below), or <code>null</code>.
            </Field>
          </tbody>
        </table>
      </div>

      <h3 id="funding-deposit">2. Deposit address (no wallet needed)</h3>
      <p className="small">
        <code>POST /api/deals/:id/funding/deposit</code> with <code>{"{ refundAddress? }"}</code>{" "}
        (write scope) answers the deal&apos;s deposit instructions; <code>GET …/funding</code> shows
        the same block as <code>deposit</code>:
      </p>
      <Code>
        {`{
  "address": "0x…",          // send exactly \`amount\` USDC here, from any wallet or exchange
  "amount": "80.000000", "amountUnits": "80000000",
  "token": { "symbol": "USDC", "address": "0x…", "decimals": 6 },
  "chainId": 84532, "network": "Base Sepolia",
  "paymentUri": "ethereum:0x…@84532/transfer?address=0x…&uint256=80000000",  // EIP-681, for a QR code
  "received": "0.000000", "receivedUnits": "0",
  "status": "awaiting",      // awaiting | underpaid | funded | returned
  "refundAddress": "0x…"     // where everything not released goes back
}`}
      </Code>
      <ul className="doc-facts small">
        <li>
          The address is a contract deployed on demand (CREATE2) for this deal, its terms and the
          refund address. It can do two things only: fund this deal in the escrow, or return money
          to <code>refundAddress</code>. Anyone may trigger either; the service never holds the
          money.
        </li>
        <li>
          Send less and the status is <code>underpaid</code>: send the rest to the same address.
          Send more and the excess goes back to <code>refundAddress</code> when the deal is funded.
          Money sent to a cancelled or expired deal is returned (<code>returned</code>).
        </li>
        <li>
          <code>refundAddress</code> defaults to the one named before, else your account&apos;s
          wallet; it can change only while nothing has been received. Remainders, refunds and
          cancels go there too.
        </li>
        <li>
          Progress arrives as events and webhooks: <code>deposit.received</code>,{" "}
          <code>funded</code>, <code>funding.returned</code>.
        </li>
      </ul>

      <h3 id="funding-gasless">3. Signed authorization (no network fee)</h3>
      <p className="small">
        The paying wallet signs USDC&apos;s <code>ReceiveWithAuthorization</code> (EIP-3009) and you
        post the signature; the service&apos;s relayer submits{" "}
        <code>
          fundWithAuthorization(dealRef, brand, evaluator, deadline, amounts, validAfter,
          validBefore, signature)
        </code>{" "}
        and pays the fee. The escrow records the signer as the funder. What to sign (EIP-712):
      </p>
      <div className="table-scroll">
        <table className="simple small">
          <caption className="visually-hidden">The typed data of a funding authorization</caption>
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            <Field name="domain">
              <code>{"{ name, version }"}</code> = <code>usdcDomain</code> of{" "}
              <code>GET /api/chain</code>, <code>chainId</code>,{" "}
              <code>verifyingContract: usdc</code>
            </Field>
            <Field name="primaryType">
              <code>
                ReceiveWithAuthorization(address from, address to, uint256 value, uint256
                validAfter, uint256 validBefore, bytes32 nonce)
              </code>
            </Field>
            <Field name="from">The paying wallet (it becomes the deal&apos;s funder).</Field>
            <Field name="to">The escrow.</Field>
            <Field name="value">
              <code>totalUnits</code>, the sum of <code>amounts</code>.
            </Field>
            <Field name="validAfter, validBefore">
              Unix seconds; the window in which it can be used (e.g. 0 and an hour from now).
            </Field>
            <Field name="nonce">
              <code>
                keccak256(abi.encode(uint256 chainId, address escrow, bytes32 dealRef, address from,
                address evaluator, uint64 deadline, keccak256(abi.encodePacked(uint256[] amounts))))
              </code>{" "}
              — the escrow&apos;s <code>fundingNonce</code>. It binds the signature to this
              deal&apos;s exact terms; <code>authorizationNonce</code> of{" "}
              <code>GET …/funding?brand=</code> is the same value.
            </Field>
          </tbody>
        </table>
      </div>
      <p className="small">
        Then <code>POST /api/deals/:id/funding/authorization</code> (settle scope) with{" "}
        <code>{"{ brand, validAfter, validBefore, signature }"}</code> (<code>brand</code>: the
        signer; <code>signature</code>: 65 bytes, hex). The answer is <code>{"{ deal }"}</code>,{" "}
        <code>open</code> once the escrow holds it. Posting the same authorization again is safe:
        the token accepts a nonce once and the escrow funds a key once. The whole path in TypeScript
        with viem:
      </p>
      <Code>{`${gaslessModule}\n${gaslessRun}`}</Code>
      <p className="small muted">
        On the local chain, a dev wallet gets test USDC from{" "}
        <code>POST /api/faucet/test-usdc {"{ address }"}</code>.
      </p>

      <h3 id="funding-direct">4. Approve + fund (the wallet pays its own fee)</h3>
      <p className="small">
        From the paying wallet: <code>approve(escrow, totalUnits)</code> on USDC, then{" "}
        <code>fund(dealRef, evaluator, deadline, amounts)</code> on the escrow, then report it with{" "}
        <code>POST /api/deals/:id/funding {"{ brand, txHash? }"}</code> (write scope) naming that
        wallet: the server reads the escrow under that wallet&apos;s key and opens the deal when the
        terms match (a funding nobody reports is found by reconciliation too).
      </p>
      <Code>{approveAndFund}</Code>
    </section>
  );
}
