import { handleWebAuth } from "@/lib/auth/web-sign-in";

// /auth/* – browser sign-in redirects through next-auth (lib/auth/web-sign-in.ts): csrf,
// signin/oidc, callback/oidc. Not part of the JSON API (/api), whose /api/auth/session,
// /api/auth/me and /api/auth/role it leaves alone.
type Context = { params: Promise<{ nextauth: string[] }> };

const handler = async (req: Request, ctx: Context) =>
  handleWebAuth(req, (await ctx.params).nextauth);

export { handler as GET, handler as POST };
