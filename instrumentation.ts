// Runs once when the Next.js server starts: a production deployment with a missing or
// malformed setting fails here, naming the variable, instead of on the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertProductionReady, env } = await import("@/lib/env");
  env();
  assertProductionReady();
}
