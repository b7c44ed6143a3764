// npm run listen -- --forward-to http://localhost:4242/hook --api-key mk_…
//   --api-url URL      the app (default: APP_URL, else http://localhost:$PORT)
//   --events a,b       forward only these event types (default: all)
//
// Follows your account's events (a long-poll of GET /api/events: no inbound connection, no
// server change) and forwards each to a local receiver as a signed webhook would arrive. It
// prints the listener secret to verify the Milestone-Signature header with (lib/webhooks/listen.ts).
import { parseArgs } from "node:util";
import { ApiError } from "@milestone/client";
import { appUrl } from "@/lib/env";
import { listen } from "@/lib/webhooks/listen";

async function main() {
  const { values } = parseArgs({
    options: {
      "forward-to": { type: "string" },
      "api-key": { type: "string" },
      "api-url": { type: "string" },
      events: { type: "string" },
    },
  });
  const forwardTo = values["forward-to"];
  const apiKey = values["api-key"];
  if (!forwardTo || !apiKey) {
    console.error(
      "Usage: npm run listen -- --forward-to http://localhost:4242/hook --api-key mk_… [--api-url URL] [--events created,paid]",
    );
    process.exit(2);
  }
  const apiUrl = values["api-url"] ?? appUrl();
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  process.once("SIGTERM", () => controller.abort());
  await listen({
    apiUrl,
    apiKey,
    forwardTo,
    types: values.events
      ?.split(",")
      .map((t) => t.trim())
      .filter(Boolean),
    signal: controller.signal,
    onReady: ({ secret }) => {
      console.log(`Ready! Forwarding the events of ${apiUrl} to ${forwardTo}.`);
      console.log(`Your listener secret is ${secret}`);
      console.log("Verify the Milestone-Signature header with it. (^C to quit)");
    },
    onForward: ({ event, status, error }) =>
      console.log(
        `${new Date().toISOString()}  --> ${event.type} [${event.id}]  <-- ${status ?? `failed: ${error}`}`,
      ),
    onError: (err) => console.error(`Polling failed, retrying: ${(err as Error).message}`),
  });
}

main().catch((err) => {
  if (err instanceof ApiError)
    console.error(`The API refused the key: ${err.status} ${err.code}: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
