/**
 * @module
 * The SQLite extension `drawdown_bm25` (native/bm25-cached.c, ADR 0233): FTS5's BM25 with each phrase's
 * document count kept between queries until the catalogue changes. Built by `scripts/build-native.mjs` when the
 * package is installed; where it could not be built, the catalogue ranks with FTS5's own `bm25()`, with the
 * same scores.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

// The same file from src/catalogue and dist/catalogue: both sit two folders under the package root. SQLite finds
// its entry point from the name: `sqlite3_` + the name's letters before the first dot + `_init`
// (`sqlite3_drawdownbm_init`).
const EXTENSION = fileURLToPath(new URL('../../build/drawdown-bm25.so', import.meta.url));

/** The ranking function a catalogue connection uses, as SQL taking the FTS table and column weights. */
export type Bm25Function = 'drawdown_bm25' | 'bm25';

/**
 * Loads the extension into `db` when it was built, and says which BM25 function to call. A library that exists
 * but does not load (built for another machine, say) is an error: that is a broken installation, not a choice.
 */
export function loadBm25(db: Database.Database, wanted = true): Bm25Function {
  if (!wanted || !existsSync(EXTENSION)) return 'bm25';
  try {
    db.loadExtension(EXTENSION);
  } catch (error) {
    throw new Error(
      `${EXTENSION} does not load (${(error as Error).message}); build it again for this machine with \`npm rebuild @drawdown/price-search\``,
    );
  }
  return 'drawdown_bm25';
}
