import AxeBuilder from "@axe-core/playwright";
import {
  type Browser,
  type BrowserContextOptions,
  expect,
  type Locator,
  type Page,
} from "@playwright/test";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  type PublicClient,
} from "viem";
import { type HDAccount, mnemonicToAccount } from "viem/accounts";
import { receiveAuthorizationTypedData } from "@/lib/escrow/onchain";

// What every browser journey needs: signing in through the dev identity provider, anvil's
// dev accounts, the mock test wallet, a JSON call with the page's session, and the
// desktop + phone screenshots a person looks at. One copy here, used by every spec.
//
// Dev accounts in use (each file has its own, so journeys running side by side never share
// a nonce or a balance): the server 0 and 1; people.spec 2, 3, 12; deals.spec 4, 5, 8;
// escrow.spec 6, 7; wallet.spec 9; drafts.spec 10; edit-deal.spec 14, 15; deposit.spec 16, 17;
// ledger.spec 18; bonus.spec 19, 20.

const DEV_MNEMONIC = "test test test test test test test test test test test junk";

/** Anvil's dev account `index` (the local chain funds it with ETH). */
export const devAccount = (index: number) =>
  mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
export const devAddress = (index: number) => devAccount(index).address;

export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 800 };

/** `0x1234…abcd`, as the app shortens addresses. */
export const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

export type Role = "Brand" | "Creator";

export const DEMO_ID_BUTTON = "Continue with Milestone demo ID";

/**
 * Signs `page` in from `signInUrl` (a /sign-in URL, with ?next= when wanted) the way a person
 * does with the embedded OpenID provider: picks the role, "Continue with Milestone demo ID",
 * the provider's login page (e-mail, optionally its embedded wallet), its consent page, and
 * back to the app. The caller waits for where it lands.
 */
export async function signInThroughDemoId(
  page: Page,
  signInUrl: string,
  email: string,
  role: Role,
  opts: { embeddedWallet?: boolean } = {},
): Promise<void> {
  await page.goto(signInUrl);
  await page.getByLabel(role, { exact: true }).check();
  await page.getByRole("button", { name: DEMO_ID_BUTTON }).click();
  await page.waitForURL(/\/interaction\//);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  if (opts.embeddedWallet)
    await page.getByLabel("No browser wallet? Use an embedded wallet").check();
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
}

/** Signs `page` in as `email` with `role` and waits for the role's dashboard. */
export async function signInOn(page: Page, email: string, role: Role): Promise<void> {
  await signInThroughDemoId(page, "/sign-in", email, role);
  await expect(page).toHaveURL(role === "Brand" ? /\/brand$/ : /\/creator$/);
}

/**
 * Signs `page` in as `email` with `role` through the demo provider with the embedded wallet
 * ("No browser wallet? Use an embedded wallet"): no browser wallet at all. Waits for the
 * role's dashboard, or for `next` when given (the sign-in URL carries it).
 */
export async function signInWithEmbeddedWallet(
  page: Page,
  email: string,
  role: Role,
  next?: string,
): Promise<void> {
  await signInThroughDemoId(
    page,
    next ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in",
    email,
    role,
    { embeddedWallet: true },
  );
  if (next) await page.waitForURL((url) => url.pathname === next);
  else await expect(page).toHaveURL(role === "Brand" ? /\/brand$/ : /\/creator$/);
}

/** On /wallet: the signed-in (embedded) wallet's entry, with its balance and send form. */
export const embeddedWalletItem = (page: Page): Locator =>
  page
    .getByTestId("money-wallets")
    .getByTestId("money-wallet")
    .filter({ hasText: "Signed-in wallet" });

/**
 * On /wallet: fills "Send to an address" of the signed-in wallet with `recipient` and
 * `amount` and asks for the review; the confirmation (focused) shows `shown` (the amount as
 * the page writes it), the destination and the network before anything moves. Returns it.
 */
export async function reviewSend(
  page: Page,
  recipient: string,
  amount: string,
  shown: string,
): Promise<Locator> {
  const item = embeddedWalletItem(page);
  // The form opens from its button (which it then replaces), unless it is open already.
  const open = item.getByRole("button", { name: "Send to an address" });
  const field = item.getByLabel("Recipient address");
  await expect(open.or(field)).toBeVisible();
  if (await open.isVisible()) await open.click();
  await field.fill(recipient);
  await item.getByLabel("Amount (USDC)").fill(amount);
  await item.getByRole("button", { name: "Review" }).click();
  const confirm = item.getByTestId("send-confirm");
  await expect(confirm).toBeFocused();
  await expect(confirm.getByTestId("confirm-amount")).toHaveText(shown);
  await expect(confirm.getByTestId("confirm-to")).toHaveText(recipient);
  await expect(confirm.getByTestId("confirm-network")).toHaveText("Local chain (anvil)");
  return confirm;
}

/**
 * Confirms the send `reviewSend` prepared: the page says it was sent, the balance drops to
 * `left` and the send is listed.
 */
export async function confirmSend(
  page: Page,
  recipient: string,
  shown: string,
  left: string,
): Promise<void> {
  const item = embeddedWalletItem(page);
  await item
    .getByTestId("send-confirm")
    .getByRole("button", { name: `Send ${shown}` })
    .click();
  await expect(item.getByTestId("send-result")).toContainText(`Sent ${shown} to ${recipient}.`);
  await expect(item.getByTestId("money-wallet-balance")).toHaveText(left);
  const sends = page.getByTestId("money-wallets").getByTestId("wallet-sends");
  await expect(sends).toContainText("Sent");
  await expect(sends).toContainText(shown);
}

/**
 * A new browser context signed in as `email` with `role`. With `wallet`, the app offers its
 * mock "test wallet" connector for that address (set before the app loads).
 */
export async function signIn(
  browser: Browser,
  email: string,
  role: Role,
  wallet?: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  if (wallet)
    await page.addInitScript((address) => {
      window.__MILESTONE_E2E_WALLET__ = address;
    }, wallet);
  await signInOn(page, email, role);
  return page;
}

/** Connects the mock test wallet inside `scope` (a full page load disconnects it). */
export async function connectTestWallet(scope: Locator, address: string): Promise<void> {
  const connected = scope.getByTestId("wallet-connected");
  const connect = scope.getByRole("button", { name: "Connect test wallet" });
  // The funding panel keeps the wallet under its second tab ("Pay by transfer" comes first).
  const walletTab = scope.getByRole("tab", { name: "Pay from a connected wallet" });
  await expect(walletTab.or(connect).or(connected).first()).toBeVisible();
  if ((await walletTab.isVisible()) && (await walletTab.getAttribute("aria-selected")) !== "true")
    await walletTab.click();
  await expect(connected.or(connect)).toBeVisible();
  if (await connect.isVisible()) await connect.click();
  await expect(connected).toContainText(short(address));
}

/**
 * Funds deal `dealId`'s escrow gaslessly: `brand` (a dev account; anvil unlocks only 0–9, so
 * the test signs) gets test USDC from the faucet and signs the EIP-3009 authorization for the
 * deal's funding terms (its ref; the escrow keys the deal by the signer), and the service
 * relays it.
 */
export async function fundGaslessly(
  page: Page,
  dealId: string,
  brand: ReturnType<typeof devAccount>,
): Promise<void> {
  await api(page, "POST", "/api/faucet/test-usdc", { address: brand.address });
  const { funding: terms } = await api<{
    funding: {
      chainId: number;
      escrow: `0x${string}`;
      usdc: `0x${string}`;
      dealRef: `0x${string}`;
      evaluator: `0x${string}`;
      deadline: number;
      amounts: string[];
    };
  }>(page, "GET", `/api/deals/${dealId}/funding?brand=${brand.address}`);
  const validBefore = BigInt(Math.floor(Date.now() / 1000) + 24 * 3600);
  const signature = await brand.signTypedData(
    receiveAuthorizationTypedData({
      ...terms,
      brand: brand.address,
      deadline: BigInt(terms.deadline),
      amounts: terms.amounts.map(BigInt),
      validAfter: 0n,
      validBefore,
    }),
  );
  await api(page, "POST", `/api/deals/${dealId}/funding/authorization`, {
    brand: brand.address,
    validAfter: 0,
    validBefore: Number(validBefore),
    signature,
  });
}

/** A JSON call with the page's session cookie and Origin, as the app's own pages make it. */
export async function api<T>(
  page: Page,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  const origin = new URL(page.url()).origin;
  const res = await page.request.fetch(path, {
    method,
    headers: { origin, "content-type": "application/json" },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${JSON.stringify(json)}`);
  return json as T;
}

/**
 * A desktop and a phone-width full-page screenshot in e2e/screenshots/ for a person to look
 * at; the phone layout must not scroll sideways.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
  const desktop = page.viewportSize();
  await page.setViewportSize(PHONE);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: `e2e/screenshots/${name}-375.png`, fullPage: true });
  if (desktop) await page.setViewportSize(desktop);
}

/**
 * The app's chain as a journey reads and pays on it (GET /api/chain): a public client, the
 * USDC balance of an address, and a wallet client for an account of the test's (an exchange,
 * say; give it USDC and gas with the test faucet first).
 */
export async function localChain(page: Page) {
  const chain = await api<{ rpcUrl: string; usdc: Address; escrow: Address }>(
    page,
    "GET",
    "/api/chain",
  );
  const client = createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient;
  const chainId = await client.getChainId();
  const balance = (address: Address) =>
    client.readContract({
      address: chain.usdc,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [address],
    });
  const walletOf = (account: HDAccount) =>
    createWalletClient({
      account,
      chain: {
        id: chainId,
        name: "local",
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [chain.rpcUrl] } },
      },
      transport: http(chain.rpcUrl),
    });
  return { chain, client, balance, walletOf };
}

/** Serious and critical axe findings (WCAG 2.x A/AA and best practice) on the page as it is. */
export async function axeProblems(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} — ${n.failureSummary}`),
    );
}
