import { appUrl } from "@/lib/env";
import { route } from "@/lib/http";
import { openApiDocument } from "@/lib/openapi";

// GET /api/openapi.json – the API description (OpenAPI 3.1)
export const GET = route({}, () => Response.json(openApiDocument(appUrl())));
