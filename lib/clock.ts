import { devIdpEnabled, env } from "@/lib/env";

// The service's notion of "now" for its own timers (review windows, milestone due dates).
// A test clock can move it forward on a local demo, so a journey that needs a week to pass
// (a brand going silent) is exercised without waiting a week. Only a demo can move it: the
// local chain with the dev identity provider on (where anyone may sign in as anyone anyway).
// Kept on globalThis: Next bundles route handlers separately, and they must all agree.

type ClockState = { offsetMs: number };
const holder = globalThis as { __milestoneClock?: ClockState };
holder.__milestoneClock ??= { offsetMs: 0 };
const state: ClockState = holder.__milestoneClock;

export function now(): Date {
  return new Date(Date.now() + state.offsetMs);
}

export function clockOffsetSeconds(): number {
  return Math.round(state.offsetMs / 1000);
}

export const testClockAllowed = () => devIdpEnabled() && env().CHAIN === "local";

/** Moves the clock forward (never back); refused outside a demo. Returns the new offset. */
export function advanceClock(seconds: number): number {
  if (!testClockAllowed()) throw new Error("the clock moves only on a local demo");
  if (!(seconds > 0)) throw new Error("the clock only moves forward");
  state.offsetMs += Math.round(seconds * 1000);
  return clockOffsetSeconds();
}
