import { env } from "@/lib/env";
import { currentRequestId } from "@/lib/request-id";

// Structured one-line JSON logs; the level comes from LOG_LEVEL.
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

function write(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (levels[level] < levels[env().LOG_LEVEL]) return;
  // Inside a request (route(), lib/http.ts), every line carries its id.
  const requestId = currentRequestId();
  const line = JSON.stringify(
    { level, time: new Date().toISOString(), msg, ...(requestId ? { requestId } : {}), ...fields },
    (_k, v) =>
      typeof v === "bigint"
        ? v.toString()
        : v instanceof Error
          ? { name: v.name, message: v.message, stack: v.stack }
          : v,
  );
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};
