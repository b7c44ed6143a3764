import { reference } from "@/app/api/reference";
import { appUrl } from "@/lib/env";
import { methodNotAllowed, route } from "@/lib/http";
import { openApiDocument } from "@/lib/openapi";

// GET /api/openapi.json – the API description (OpenAPI 3.1)
export const GET = route({}, () => Response.json(openApiDocument(appUrl(), reference)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
