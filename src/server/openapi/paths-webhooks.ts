// OpenAPI paths of /webhooks (contract §2.7), from the core schemas.
import { LIMITS } from '../../core/values.js';
import { z } from 'zod';
import { DeliverySchema, WebhookCreateSchema, WebhookSchema, WebhookUpdateSchema } from '../../core/webhooks.js';
import { envelope, errorResponse, errorResponses, jsonResponse, withLocation } from './operations.js';

function json(schema: z.ZodType, io: 'input' | 'output') {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return rest;
}

/** Export events carry download links (docs/decisions.md). */
const EXPORT_EVENTS_SCOPE =
  'A webhook that receives export.* events is subscribed, given other events, pointed elsewhere or given a new secret only by a key that also has exports:read (403 insufficient_scope).';


export function webhookPaths(): Record<string, Record<string, unknown>> {
  const webhook = json(WebhookSchema.extend({ previous_secret_expires_at: z.string().nullable() }), 'output');
  const delivery = json(DeliverySchema.extend({ succeeded: z.boolean() }), 'output');
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  const body = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema: json(schema, 'input') } } });
  const pagination = {
    type: 'object',
    required: ['limit', 'has_more'],
    properties: { limit: { type: 'integer' }, has_more: { type: 'boolean' }, next_cursor: { type: 'string' } },
  };
  const security = [{ bearer: [] }];
  return {
    '/webhooks': {
      post: {
        operationId: 'createWebhook',
        summary: 'Create a webhook; the response holds its signing secret, shown only here and on rotation',
        description: `Needs scope webhooks:manage and the pro plan. The URL must be https on port 443, written plainly (https://host/path, no spaces or backslashes), and must not reach an internal address. An account has at most ${LIMITS.webhooksPerAccount} webhooks (403 plan_required past that). With Idempotency-Key the same body within 24 hours replays the first response (with the webhook's current secret) and makes no second webhook; another body, or a replay once the webhook is deleted, is a 409. ${EXPORT_EVENTS_SCOPE}`,
        security,
        parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }],
        requestBody: body(WebhookCreateSchema),
        responses: {
          '201': withLocation(jsonResponse('The webhook, with its secret', envelope(webhook)), 'The URL of the webhook made'),
          '409': errorResponse('Idempotency-Key reused with another body, still in flight, or its webhook since deleted'),
          ...errorResponses,
        },
      },
      get: {
        operationId: 'listWebhooks',
        summary: "The account's webhooks, in creation order",
        description: `A page holds ${LIMITS.limitMax} by default, as many as an account may have, so most accounts get every webhook at once.`,
        security,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: LIMITS.limitMax, default: LIMITS.limitMax } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': jsonResponse('Webhooks', envelope({ type: 'array', items: webhook }, { pagination })), ...errorResponses },
      },
    },
    '/webhooks/{id}': {
      get: {
        operationId: 'getWebhook',
        summary: 'One webhook',
        security,
        parameters: [id],
        responses: { '200': jsonResponse('The webhook', envelope(webhook)), ...errorResponses },
      },
      patch: {
        operationId: 'updateWebhook',
        summary: 'Change url, events or filters, or re-enable with status=active',
        description: EXPORT_EVENTS_SCOPE,
        security,
        parameters: [id],
        requestBody: body(WebhookUpdateSchema),
        responses: { '200': jsonResponse('The webhook', envelope(webhook)), ...errorResponses },
      },
      delete: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook; pending deliveries are dropped',
        security,
        parameters: [id],
        responses: {
          '200': jsonResponse('Deleted', envelope({ type: 'object', properties: { id: { type: 'string' }, deleted: { type: 'boolean' } } })),
          ...errorResponses,
        },
      },
    },
    '/webhooks/{id}/rotate-secret': {
      post: {
        operationId: 'rotateWebhookSecret',
        summary: 'New signing secret; for 24 hours deliveries carry signatures with both the old and the new one',
        description: EXPORT_EVENTS_SCOPE,
        security,
        parameters: [id],
        responses: { '200': jsonResponse('The webhook, with its new secret', envelope(webhook)), ...errorResponses },
      },
    },
    '/webhooks/{id}/test': {
      post: {
        operationId: 'testWebhook',
        summary: 'Queue a delivery of a webhook.test event',
        security,
        parameters: [id],
        responses: {
          '202': jsonResponse(
            'Queued',
            envelope({
              type: 'object',
              properties: { webhook_id: { type: 'string' }, event_id: { type: 'string' }, type: { type: 'string', const: 'webhook.test' } },
            }),
          ),
          ...errorResponses,
        },
      },
    },
    '/webhooks/{id}/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery attempts, newest first, with status code, duration and error',
        security,
        parameters: [
          id,
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': jsonResponse('Deliveries', envelope({ type: 'array', items: delivery }, { pagination })), ...errorResponses },
      },
    },
  };
}
