import { ApiError } from "@/lib/client/api";

// A 400 invalid_request carries the zod issues as details [{ path, message }]. Forms show
// each message next to the input its path names, e.g. ["milestones","0","amount"].

export type FieldIssue = { path: string[]; message: string };

/** The field issues of an invalid_request error, or null for any other error. */
export function fieldIssues(err: unknown): FieldIssue[] | null {
  if (!(err instanceof ApiError) || err.code !== "invalid_request" || !Array.isArray(err.details))
    return null;
  return err.details.flatMap((d: unknown) => {
    if (!d || typeof d !== "object") return [];
    const { path, message } = d as { path?: unknown; message?: unknown };
    if (!Array.isArray(path) || typeof message !== "string") return [];
    return [{ path: path.map(String), message }];
  });
}

export class FieldErrors {
  constructor(readonly issues: FieldIssue[] = []) {}

  get any(): boolean {
    return this.issues.length > 0;
  }

  /** Messages for exactly this path. */
  at(...path: Array<string | number>): string[] {
    const key = path.map(String).join(".");
    return this.issues.filter((i) => i.path.join(".") === key).map((i) => i.message);
  }

  /** Issues at this path or below it, with the rest of their path (e.g. an item index). */
  under(...path: Array<string | number>): Array<{ rest: string[]; message: string }> {
    const prefix = path.map(String);
    return this.issues
      .filter((i) => prefix.every((p, n) => i.path[n] === p))
      .map((i) => ({ rest: i.path.slice(prefix.length), message: i.message }));
  }

  /** The same without the issues at or below `path` (its input was edited since). */
  without(...path: Array<string | number>): FieldErrors {
    const prefix = path.map(String);
    const kept = this.issues.filter((i) => !prefix.every((p, n) => i.path[n] === p));
    return kept.length === this.issues.length ? this : new FieldErrors(kept);
  }

  /** Issues no input claims (`claimed` says which paths the form renders). */
  unclaimed(claimed: (path: string[]) => boolean): FieldIssue[] {
    return this.issues.filter((i) => !claimed(i.path));
  }
}

/** The error lines under an input; its id is what the input's aria-describedby points at. */
export const errorId = (...path: Array<string | number>) => `err-${path.join("-")}`;
