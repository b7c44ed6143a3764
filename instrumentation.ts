// Runs once when the Next.js server starts. Everything it does is Node.js-only
// (lib/startup.ts: the production settings checked, traces set up): the branch below is the
// pattern Next documents, so the Edge compilation of this file drops it and never warns about
// the Node.js APIs it uses.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs")
    await (await import("@/lib/startup")).startNodeServer();
}
