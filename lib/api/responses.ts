import { z } from "zod";

// Every response shape lives next to the module that builds it, as one zod schema whose
// z.infer is the serialiser's type (lib/deals/serialize.ts, lib/settle/review.ts,
// lib/webhooks/endpoints.ts, lib/errors.ts for the error envelope, …); lib/openapi.ts only
// points at them. This one answer has no domain module: the reference itself.

export const openApiDocumentResponse = z
  .object({ openapi: z.literal("3.1.0") })
  .catchall(z.unknown())
  .describe("This document");
