import { devIdpEnabled } from "@/lib/env";

// Shown on every page while the built-in dev identity provider is on: anyone can then sign
// in as any e-mail address, so nobody should mistake this deployment for a real one.
// A server component reading the server's configuration: on prerendered pages (home,
// docs, 404) that is the configuration the app was built with, on the others the one it
// runs with.
export function DemoIdentityBanner() {
  if (!devIdpEnabled()) return null;
  return (
    <div className="demo-banner" role="note" data-testid="demo-identity-banner">
      <div className="container">
        <strong>Demo identity</strong> — anyone can sign in as any e-mail address. Do not use this
        deployment for anything real.
      </div>
    </div>
  );
}
