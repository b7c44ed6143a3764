import { resetChainConfigCache } from "@/lib/chain/config";
import { deployFundedContracts } from "@/lib/chain/deploy";
import { devAccountKey } from "@/lib/chain/dev-accounts";
import { resetEnvCache } from "@/lib/env";

// Runs before each test file (vitest setupFiles). Every file gets fresh contracts on the
// shared anvil, deployed by a treasury account of its own worker slot: accounts 2+2k and
// 3+2k for worker k, so files running in parallel never sign with the same key (in PGlite
// mode each worker has its own database, so Postgres locks could not serialise them).
const slot = Number(process.env.VITEST_POOL_ID ?? "1");
const treasuryKey = devAccountKey(2 * slot);
const sponsorKey = devAccountKey(2 * slot + 1);
const rpcUrl = process.env.RPC_URL;
if (!rpcUrl) throw new Error("RPC_URL is not set: test/global-setup.ts starts anvil");

const deployment = await deployFundedContracts({ rpcUrl, treasuryKey });

process.env.TREASURY_PRIVATE_KEY = treasuryKey;
process.env.RELAY_SPONSOR_PRIVATE_KEY = sponsorKey;
process.env.USDC_ADDRESS = deployment.usdc;
process.env.REPUTATION_REGISTRY_ADDRESS = deployment.registry;
process.env.ESCROW_ADDRESS = deployment.escrow;
resetEnvCache();
resetChainConfigCache();
