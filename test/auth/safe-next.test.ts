import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/auth/safe-next";

// /sign-in?next=…: only a path on the app's own origin survives (issue 21, point 6). The
// values are what the page receives after the query string is decoded.

describe("safeNextPath", () => {
  it.each([
    ["/brand"],
    ["/deals/7d3e0c1e-3b0a-4a51-9a43-7b1f1f0e2b11"],
    ["/creator?tab=open"],
    ["/docs#scopes"],
    ["/@evil.example"], // a path segment, not a host
    ["/deals/%E2%9C%93"], // well-formed escapes of harmless characters
  ])("keeps the same-origin path %s", (value) => {
    expect(safeNextPath(value)).toBe(value);
  });

  it.each([
    ["//evil.example"],
    ["///evil.example"],
    ["/\\evil.example"], // ?next=/%5Cevil.example
    ["\\\\evil.example"],
    ["/\\/evil.example"],
    ["/\t/evil.example"], // ?next=/%09/evil.example
    ["/\n/evil.example"],
    ["/\r\n/evil.example"],
    ["/ /evil.example"],
    ["/\u00a0/evil.example"],
    ["/%5Cevil.example"], // double-encoded backslash
    ["/%09/evil.example"], // double-encoded tab
    ["/%2F/evil.example"], // double-encoded slash
    ["/.//evil.example"], // normalises to //evil.example
    ["/..//evil.example"],
    ["https://evil.example/x"],
    ["http:/evil.example"],
    ["javascript:alert(1)"],
    ["JaVaScRiPt:alert(1)"],
    ["data:text/html,<script>alert(1)</script>"],
    [" /brand"],
    ["evil.example"],
    ["/%E0%A4%A"], // bad percent-encoding
    [""],
    [undefined],
    [["/brand", "/creator"]],
  ])("refuses %j", (value) => {
    expect(safeNextPath(value)).toBeNull();
  });
});
