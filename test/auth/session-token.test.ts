import { afterEach, describe, expect, it, vi } from "vitest";
import { createSessionToken, readSessionToken } from "@/lib/auth/session";
import { env } from "@/lib/env";

// readSessionToken keeps the claims of tokens it has decrypted (lib/auth/session.ts): what it
// keeps must answer exactly as decrypting again would — an expired token refused even after
// it was read while valid, an altered one refused whatever was read before.

const userId = "0b0e7f55-3c7c-4f0e-9d43-6f1d2f2b8c11";

describe("readSessionToken", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers the same claims on every read, and none once the token has expired", async () => {
    const { token, expiresAt } = await createSessionToken(userId, 3);
    expect(await readSessionToken(token)).toEqual({ userId, sessionVersion: 3 });
    expect(await readSessionToken(token)).toEqual({ userId, sessionVersion: 3 });
    vi.useFakeTimers({ toFake: ["Date"], now: expiresAt.getTime() + 60_000 });
    expect(await readSessionToken(token)).toBeNull();
    // Still refused (not read back from a stale entry) once it has been refused.
    expect(await readSessionToken(token)).toBeNull();
  });

  it("refuses a token altered after a valid one was read", async () => {
    const { token } = await createSessionToken(userId, 0);
    expect(await readSessionToken(token)).not.toBeNull();
    const parts = token.split(".");
    const tag = parts[4] as string;
    parts[4] = `${tag.startsWith("A") ? "B" : "A"}${tag.slice(1)}`;
    expect(await readSessionToken(parts.join("."))).toBeNull();
    expect(await readSessionToken(`${token}x`)).toBeNull();
  });

  it("keeps at most a bounded number of tokens and still reads every one correctly", async () => {
    const tokens = await Promise.all(
      Array.from({ length: 1_100 }, (_, i) => createSessionToken(userId, i)),
    );
    for (const [i, t] of tokens.entries())
      expect(await readSessionToken(t.token)).toEqual({ userId, sessionVersion: i });
    // The first ones were dropped to make room: decrypted again, with the same answer.
    expect(await readSessionToken((tokens[0] as { token: string }).token)).toEqual({
      userId,
      sessionVersion: 0,
    });
    expect(env().SESSION_MAX_AGE_SECONDS).toBeGreaterThan(0);
  });
});
