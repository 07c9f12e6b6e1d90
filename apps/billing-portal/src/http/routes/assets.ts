/**
 * @module
 * The page's script and stylesheet, content-hashed in their URLs (`?v=`), so cached for a year.
 */
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { PORTAL_SCRIPT } from '../../portal/assets-script.js';
import { PORTAL_CSS } from '../../portal/assets-style.js';
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

export function registerAssetRoutes(app: Hono): void {
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
