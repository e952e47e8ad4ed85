// HMAC signatures for what the server hands out and must recognise later untouched:
// search cursors and download links. The key lives in the database, so every `serve`
// process over the same database agrees and a restart invalidates nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class Signer {
  constructor(private readonly key: string) {}

  sign(purpose: string, payload: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\n${payload}`).digest('base64url');
  }

  verify(purpose: string, payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
