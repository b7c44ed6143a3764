import openapiTS, { astToString } from "openapi-typescript";

// The TypeScript types of the API reference (openapi-typescript's `paths`, `operations`,
// `components`), as the typed client uses them. Generated: `npm run openapi -- --types`
// writes OPENAPI_TYPES_FILE; test/foundation/openapi.test.ts fails when it is not current.

export const OPENAPI_TYPES_FILE = "packages/client/src/openapi-types.ts";

const header = `// Generated from the API reference (lib/openapi.ts) by openapi-typescript: do not edit.
// After changing the reference: npm run openapi -- --types
`;

export async function renderOpenApiTypes(document: unknown): Promise<string> {
  return header + astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
}
