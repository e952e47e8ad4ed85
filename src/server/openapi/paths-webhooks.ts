// OpenAPI paths of /webhooks (filled in with the webhooks resource).
export function webhookPaths(): Record<string, Record<string, unknown>> {
  return {};
}
