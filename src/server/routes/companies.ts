// GET /companies, GET /companies/{id}, GET /categories (spec §4.1; contract §2.4, §2.5).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pickFields } from '../../core/company.js';
import { ApiError } from '../../core/errors.js';
import { conditionalFieldMissing, OUTPUT_PARAMS, SEARCH_QUERY_SCHEMA, toSearchQuery } from '../../core/search-params.js';
import { LIMITS } from '../../core/values.js';
import { CATEGORIES } from '../../reference/categories.js';
import { guard } from '../auth.js';
import type { ServerContext } from '../../app/context.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { parseQuery } from '../../core/validate.js';
import { quoted } from '../../core/text.js';

const ONE_COMPANY_QUERY = z
  .strictObject({ fields: OUTPUT_PARAMS.fields, expand: OUTPUT_PARAMS.expand })
  .partial()
  .superRefine((v, issues) => {
    // One company is read without near: it never has a distance_km.
    const missing = conditionalFieldMissing(v.fields, { near: false, expand: v.expand ?? [] });
    if (missing) issues.addIssue({ code: 'custom', path: ['fields'], message: missing });
  });
const NO_QUERY = z.strictObject({});

/** Counting never starts with less than this, however long the search took. */
const MIN_COUNT_BUDGET_MS = 50;

export function companyRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { store, signer } = ctx;
  const readCompanies = guard(ctx, 'companies:read');

  app.get('/companies', { onRequest: readCompanies }, async (request, reply) => {
    const query = toSearchQuery(parseQuery(SEARCH_QUERY_SCHEMA, request.query));
    let after = null;
    if (query.cursor !== undefined) {
      const decoded = decodeCursor(signer, query.cursor, query);
      if ('error' in decoded) throw new ApiError('invalid_parameter', `Invalid cursor: it ${decoded.error}.`, 'cursor');
      after = decoded;
    }
    const page = await store.companies.search(query, after);
    // The count gets what is left of the 1 s the whole call may take (contract §2.5).
    const elapsedMs = reply.elapsedTime;
    const total = query.include_total ? await store.companies.count(query.filters, Math.max(MIN_COUNT_BUDGET_MS, LIMITS.countBudgetMs - elapsedMs)) : null;
    return {
      data: page.rows.map((c) => pickFields(c, query.fields)),
      pagination: {
        limit: query.limit,
        has_more: page.next !== null,
        ...(page.next ? { next_cursor: encodeCursor(signer, page.next, query) } : {}),
        // An estimate is never below what this page already shows (PostgreSQL's planner said 1
        // beside 100 rows and more to come).
        ...(total ? { total: total.estimated ? Math.max(total.total, page.rows.length + (page.next ? 1 : 0)) : total.total, total_estimated: total.estimated } : {}),
      },
      meta: { request_id: request.id },
    };
  });

  app.get<{ Params: { id: string } }>('/companies/:id', { onRequest: readCompanies }, async (request) => {
    const opts = parseQuery(ONE_COMPANY_QUERY, request.query);
    if (opts.expand && opts.expand.length > 1) throw new ApiError('invalid_parameter', 'Invalid expand: takes one value.', 'expand');
    const company = await store.companies.get(request.params.id, { expand: opts.expand });
    if (!company) throw new ApiError('not_found', `No company with id or org_nr ${quoted(request.params.id)}.`);
    return { data: pickFields(company, opts.fields), meta: { request_id: request.id } };
  });

  app.get('/categories', { onRequest: readCompanies }, async (request) => {
    parseQuery(NO_QUERY, request.query);
    return {
      data: CATEGORIES.map((c) => ({ slug: c.slug, name: c.name, parent: c.parent, sni_prefixes: [...c.sni_prefixes] })),
      meta: { request_id: request.id },
    };
  });
}
