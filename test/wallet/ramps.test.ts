import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { offrampUrl, onrampUrl, rampUrl } from "@/lib/wallet/ramps";

// The on- and off-ramp links are built from a URL template in configuration (ONRAMP_URL,
// OFFRAMP_URL). The services behind them are external and not tested here: only that the
// link is built as configured, its values encoded, and absent when not configured.

const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("ramp links", () => {
  it("fills {address} {amount} {network} {token}, URL-encoded", () => {
    const template =
      "https://pay.example.com/buy?to={address}&amount={amount}&network={network}&asset={token}";
    expect(onrampUrl(template, { address, amount: "25.5", network: "base-sepolia" })).toBe(
      `https://pay.example.com/buy?to=${address}&amount=25.5&network=base-sepolia&asset=USDC`,
    );
    expect(
      offrampUrl("https://cash.example.com/sell/{network}?from={address}&a={amount}", {
        address,
        amount: "1 000&x=1",
        network: "base",
      }),
    ).toBe(`https://cash.example.com/sell/base?from=${address}&a=1%20000%26x%3D1`);
  });

  it("leaves an absent amount empty and unknown braces alone", () => {
    expect(rampUrl("https://r.example/?a={amount}&x={other}", { address, network: "base" })).toBe(
      "https://r.example/?a=&x={other}",
    );
  });

  it("no template, or one that does not make an http(s) URL: no link", () => {
    expect(onrampUrl(undefined, { address, network: "base" })).toBeNull();
    expect(onrampUrl("", { address, network: "base" })).toBeNull();
    expect(offrampUrl("{address}", { address, network: "base" })).toBeNull();
    expect(offrampUrl("javascript:alert({address})", { address, network: "base" })).toBeNull();
  });

  it("the templates are configuration: absent by default, URLs with placeholders accepted", () => {
    expect(parseEnv({}).ONRAMP_URL).toBeUndefined();
    expect(parseEnv({}).OFFRAMP_URL).toBeUndefined();
    const e = parseEnv({ ONRAMP_URL: "https://pay.example.com/buy?to={address}&n={network}" });
    expect(onrampUrl(e.ONRAMP_URL, { address, network: "base" })).toBe(
      `https://pay.example.com/buy?to=${address}&n=base`,
    );
    expect(() => parseEnv({ OFFRAMP_URL: "not a url {address}" })).toThrow(/OFFRAMP_URL/);
  });
});
