// Said loudly by `bolag serve --allow-insecure-webhooks` at start (contract §2.7).
export const INSECURE_WEBHOOKS_WARNING =
  'WARNING: --allow-insecure-webhooks is on. Webhooks may use http, any port, and internal or loopback ' +
  'addresses (localhost, 10.x, 169.254.169.254, ...). Use this for local development and tests only, never on a shared or public server.';
