// OpenAPI paths of /exports and its signed download links (spec §4.2, §4.3; contract §2.6).
import { z } from 'zod';
import { ExportRequestSchema, ExportSchema } from '../../core/exports.js';
import { LIMITS } from '../../core/values.js';
import { envelope, errorResponses, jsonResponse, withLocation } from './operations.js';

const toJson = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _s, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return json;
};

const errorRef = { $ref: '#/components/schemas/Error' };
const linkError = (description: string) => jsonResponse(description, errorRef);

const linkParameters = [
  { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
  { name: 'expires', in: 'query', required: true, description: 'Expiry of the link, unix seconds (signed).', schema: { type: 'string' } },
  { name: 'signature', in: 'query', required: true, description: 'Signature of the link.', schema: { type: 'string' } },
];

// Built on call, not at load: operations.ts imports this module while it is still loading.
const linkResponses = () => ({
  '403': linkError('The link was changed (bad signature)'),
  '404': linkError('No such export or file'),
  '410': linkError('The link has expired (24 hours after completion)'),
});

export function exportPaths(): Record<string, Record<string, unknown>> {
  const exportRecord = toJson(ExportSchema, 'output');
  const pagination = {
    type: 'object',
    required: ['limit', 'has_more'],
    properties: { limit: { type: 'integer' }, has_more: { type: 'boolean' }, next_cursor: { type: 'string' } },
  };
  return {
    '/exports': {
      post: {
        operationId: 'createExport',
        summary: 'Create an export of a search as CSV or JSONL',
        description:
          'Needs scope exports:create. Companies with an advertising block are excluded unless filters.exclude_advertising_blocked is false. ' +
          'Parts of 100,000 rows. With Idempotency-Key the same body within 24 hours replays the first response; another body is a 409. ' +
          `An account has at most ${LIMITS.unfinishedExportsPerAccount} exports queued or running; past that 429 rate_limited, with Retry-After.`,
        parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }],
        requestBody: { required: true, content: { 'application/json': { schema: toJson(ExportRequestSchema, 'input') } } },
        responses: {
          '202': withLocation(jsonResponse('The export, queued', envelope(exportRecord)), 'The URL of the export made (GET it to follow it)'),
          '409': linkError('Idempotency-Key reused with another body, or still in flight'),
          ...errorResponses,
        },
      },
      get: {
        operationId: 'listExports',
        summary: "The account's exports",
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': jsonResponse('A page of exports', envelope({ type: 'array', items: exportRecord }, { pagination })), ...errorResponses },
      },
    },
    '/exports/{id}': {
      get: {
        operationId: 'getExport',
        summary: 'One export: status, rows, files and links',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': jsonResponse('The export', envelope(exportRecord)), ...errorResponses },
      },
    },
    '/exports/{id}/download': {
      get: {
        operationId: 'downloadExport',
        summary: 'The whole export: the file itself for one part, a ZIP of the parts otherwise',
        security: [],
        parameters: linkParameters,
        responses: {
          '200': { description: 'The file (text/csv, application/x-ndjson) or application/zip' },
          '206': { description: 'A byte range of a single-part export' },
          '416': linkError('Range not satisfiable'),
          ...linkResponses(),
        },
      },
    },
    '/exports/{id}/files/{n}': {
      get: {
        operationId: 'downloadExportFile',
        summary: 'One part of an export, numbered from 1; honours Range: bytes=a-b',
        security: [],
        parameters: [linkParameters[0], { name: 'n', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }, ...linkParameters.slice(1)],
        responses: {
          '200': { description: 'The part' },
          '206': { description: 'A byte range of the part' },
          '416': linkError('Range not satisfiable'),
          ...linkResponses(),
        },
      },
    },
  };
}
