import type { Address, Hex } from "viem";
import { z } from "zod";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

// A Gelato-style relayer API client (sponsored calls): the relayer submits our calldata
// and pays the gas; we follow the task until it has a transaction hash and a final state.

export type RelayTaskState = "pending" | "success" | "reverted" | "cancelled";
export type RelayTask = { state: RelayTaskState; txHash: Hex | null; message?: string };

const callResponse = z.object({ taskId: z.string().min(1) });
const statusResponse = z.object({
  task: z.object({
    taskState: z.string(),
    transactionHash: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/)
      .nullish(),
    lastCheckMessage: z.string().nullish(),
  }),
});

const states: Record<string, RelayTaskState> = {
  CheckPending: "pending",
  ExecPending: "pending",
  WaitingForConfirmation: "pending",
  ExecSuccess: "success",
  ExecReverted: "reverted",
  Cancelled: "cancelled",
};

function unavailable(message: string, cause?: unknown): AppError {
  log.warn("relayer call failed", { message, err: cause });
  return new AppError(
    "relay_unavailable",
    "The relayer did not answer. Nothing was lost; try again in a moment.",
    {
      cause,
    },
  );
}

async function requestJson(url: string, init: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw unavailable(`${init.method ?? "GET"} ${url} failed`, err);
  }
  const text = await res.text();
  if (!res.ok) throw unavailable(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw unavailable(`${url} answered non-JSON`, err);
  }
}

export function gelatoRelayer(config = { url: env().RELAY_API_URL, apiKey: env().RELAY_API_KEY }) {
  const { url, apiKey } = config;
  if (!url || !apiKey)
    throw new AppError(
      "not_configured",
      "RELAY_API_URL and RELAY_API_KEY are required for the relayer.",
    );
  const base = url.replace(/\/$/, "");
  return {
    /** Submits a sponsored call; returns the relayer's task id. */
    async sponsoredCall(p: { chainId: number; target: Address; data: Hex }): Promise<string> {
      const body = await requestJson(`${base}/relays/v2/sponsored-call`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          chainId: String(p.chainId),
          target: p.target,
          data: p.data,
          sponsorApiKey: apiKey,
        }),
      });
      const parsed = callResponse.safeParse(body);
      if (!parsed.success) throw unavailable("sponsored-call answered without a taskId");
      return parsed.data.taskId;
    },

    async taskStatus(taskId: string): Promise<RelayTask> {
      const body = await requestJson(`${base}/tasks/status/${encodeURIComponent(taskId)}`, {
        method: "GET",
      });
      const parsed = statusResponse.safeParse(body);
      if (!parsed.success) throw unavailable("task status answered in an unknown shape");
      const t = parsed.data.task;
      return {
        state: states[t.taskState] ?? "pending",
        txHash: (t.transactionHash as Hex | null | undefined) ?? null,
        message: t.lastCheckMessage ?? undefined,
      };
    },
  };
}
