import { devIdpEnabled } from "@/lib/env";

// Shown on every page while the built-in dev identity provider is on: anyone can then sign
// in as any e-mail address, so nobody should mistake this deployment for a real one.
// A server component reading the server's configuration (the layout is rendered per
// request already: the wallet root reads the request's cookies).
export function DemoIdentityBanner() {
  if (!devIdpEnabled()) return null;
  return (
    <div className="demo-banner" role="note" data-testid="demo-identity-banner">
      <div className="container">
        <strong>Demo identity</strong> — sign-in here is the built-in test provider: anyone can sign
        in as any e-mail address. Do not use this deployment for anything real.
      </div>
    </div>
  );
}
