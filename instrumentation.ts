// Runs once when the Next.js server starts: a production deployment with a missing or
// malformed setting stops here, naming the variable, instead of failing on the first request.
// (Next 16's `next start` only logs an error thrown here and then answers every request 500:
// the process exits instead, so a host sees an instance that did not start.)
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertProductionReady, env } = await import("@/lib/env");
  try {
    env();
    assertProductionReady();
  } catch (err) {
    console.error(`[milestone] not starting: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
