import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { storage } from "@/lib/storage";
import { createUploadTicket, uploadTicketBody } from "@/lib/storage/direct";

// POST /api/uploads – a presigned URL to send one file straight to the bucket (lib/storage/direct.ts)
export const POST = route(
  { auth: requireUser, scope: "write", body: uploadTicketBody },
  async ({ user, body }) =>
    Response.json(await createUploadTicket(await getDb(), storage(), user, body), {
      status: 201,
    }),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
