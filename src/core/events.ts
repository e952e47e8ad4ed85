// The event envelope (spec §6.3; contract §2.7).
import { z } from 'zod';

export const EventSchema = z.object({
  id: z.string(),
  type: z.string(),
  created_at: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type BolagEvent = z.infer<typeof EventSchema>;

export const DELIVERY_HEADERS = {
  id: 'Bolag-Event-Id',
  type: 'Bolag-Event-Type',
  signature: 'Bolag-Signature',
  userAgent: 'Bolag-Webhooks/1.0',
} as const;
