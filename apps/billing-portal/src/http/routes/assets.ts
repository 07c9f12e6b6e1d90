/**
 * @module
 * The page's script and stylesheet, content-hashed in their URLs (`?v=`), so cached for a year.
 */
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { PORTAL_SCRIPT } from '../../portal/assets-script.js';
import { PORTAL_CSS } from '../../portal/assets-style.js';
import type { PortalOperations } from '../../portal/portal-operations.js';
import type { PageAssets } from '../../portal/render-page.js';

function versioned(basePath: string, file: string, content: string): string {
  return `${basePath}/assets/${file}?v=${createHash('sha256').update(content).digest('hex').slice(0, 12)}`;
}

/** The assets' URLs under `basePath`. */
export function portalAssets(basePath: string): PageAssets {
  return {
    scriptUrl: versioned(basePath, 'portal.js', PORTAL_SCRIPT),
    styleUrl: versioned(basePath, 'portal.css', PORTAL_CSS),
  };
}

export function registerAssetRoutes(app: Hono, portal: PortalOperations): void {
  // The seller's logo (ADR 0810), served from the portal's own origin: the page's CSP allows
  // images from 'self' only. Its URL carries the logo's version, so a new logo is a new URL.
  app.get('/assets/seller-logo', async (c) => {
    const logo = await portal.sellerLogo();
    if (logo === null) return c.body(null, 404);
    return c.body(logo.bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': logo.contentType,
      'Cache-Control': 'public, max-age=86400',
    });
  });
  app.get('/assets/portal.js', (c) =>
    c.body(PORTAL_SCRIPT, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    }),
  );
  app.get('/assets/portal.css', (c) =>
    c.body(PORTAL_CSS, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    }),
  );
}
