/**
 * @module
 * Facts about the installed package: its version (for /health and the MCP handshake) and its bundled data.
 * Paths are resolved from this file, which sits one level below the package root in both src/ and dist/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packageRoot = new URL('../../', import.meta.url);

/** The package version from package.json. */
export const PACKAGE_VERSION: string = (() => {
  const manifest: unknown = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8'));
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest
    ? String(manifest.version)
    : '0.0.0';
})();

/** The demo feed shipped with the package (GMC TSV, a few hundred real UK products). */
export const DEMO_FEED_PATH = fileURLToPath(new URL('data/demo-feed.tsv', packageRoot));
