// GET /docs: the API reference in a browser, without a key. Swagger UI, served from its npm
// package (@fastify/swagger-ui) with every asset on this server: no CDN, no fonts from
// elsewhere, no validator badge (validatorUrl stays null), and a Content-Security-Policy
// that keeps it so. It renders the same OpenAPI document as GET /api/public/v1/openapi.json.
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../app/context.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { publicApiBase, serviceRoot } from '../../core/public-url.js';

export const DOCS_PATH = '/docs';

/**
 * Only this origin, and nothing upgraded to https (the page must work on http://127.0.0.1 and
 * behind a proxy alike). Swagger UI sets inline styles from script, hence 'unsafe-inline' for
 * styles only.
 */
const CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/** The top bar: our name instead of the framework's logo, and no "Explore" box for other documents. */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><text x="0" y="29" font-family="sans-serif" font-size="28" font-weight="700" fill="#fff">bolag</text></svg>`;
const THEME_CSS = '.swagger-ui .topbar .download-url-wrapper { display: none; }';

export async function docsRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  // The base URL is known only once the server listens: build the document on first view.
  let document: Record<string, unknown> | undefined;
  const current = () => (document ??= buildOpenApiDocument(ctx.baseUrl()) as Record<string, unknown>);
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([import('@fastify/swagger'), import('@fastify/swagger-ui')]);
  await app.register(swagger, { mode: 'static', specification: { document: buildOpenApiDocument(ctx.baseUrl()) as never } });
  // Behind a proxy's mount point (--public-url https://example.se/bolag) the page's assets are
  // there too: named from the server's root, they were fetched outside the mount.
  const mount = ctx.options.publicUrl ? new URL(serviceRoot(publicApiBase(ctx.options.publicUrl))).pathname.replace(/\/+$/, '') : '';
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    ...(mount ? { indexPrefix: mount } : {}),
    staticCSP: CSP,
    transformSpecification: () => current(),
    transformSpecificationClone: false,
    uiConfig: {
      docExpansion: 'full', // every operation open, with its parameters
      defaultModelsExpandDepth: 3, // and the schemas below them
      deepLinking: true,
      displayRequestDuration: true,
      tryItOutEnabled: false,
    },
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: `${mount}${DOCS_PATH}`, target: '_self' },
    theme: { title: 'bolag API reference', css: [{ filename: 'bolag.css', content: THEME_CSS }] },
  });
}
