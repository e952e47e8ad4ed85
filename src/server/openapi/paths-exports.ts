// OpenAPI paths of /exports (filled in with the exports resource).
export function exportPaths(): Record<string, Record<string, unknown>> {
  return {};
}
