/*
 * drawdown_bm25(): FTS5's BM25 ranking with each phrase's document count kept between queries.
 *
 * FTS5's own bm25() counts, for every query again, the rows that hold each of the query's phrases (its IDF),
 * by walking the phrase's whole doclist: about half of a price-search lookup's ranked query (ADR 0233). That
 * count depends only on the table's contents, so this function keeps it per phrase, per connection, for as long
 * as the database's data version (SQLITE_FCNTL_DATA_VERSION: any commit, by this connection or another) stays
 * the same, and never inside an explicit transaction (whose own uncommitted writes it could not see change).
 * Everything else is bm25()'s documented formula, computed in the same order, so the scores are the same
 * doubles: https://sqlite.org/fts5.html#the_bm25_function
 *
 *   SELECT rowid, drawdown_bm25(t, 10.0, 4.0) FROM t WHERE t MATCH '"phrase one" AND "two"'
 *
 * The cache keys a phrase by its tokens only, so the function is for expressions of plain phrases: a prefix
 * phrase ("iph"*) or a column filter would share a key with the plain phrase of the same tokens. The price
 * search's expressions are always plain quoted phrases (src/catalogue/match-expression.ts). The data version
 * read is the main database's, so the table must live there (not in an attached database), as listings_fts does.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1

/* One phrase's document count. An open-addressing table, cleared when the data version changes or it fills. */
typedef struct PhraseCount {
  char *key; /* the phrase's tokens, each followed by a 0 byte; NULL for an empty slot */
  int keyLength;
  sqlite3_int64 hits;
} PhraseCount;

#define TABLE_SLOTS 16384 /* a power of two */
#define TABLE_MOST 12288  /* entries kept before the table is cleared */

typedef struct PhraseCache {
  unsigned int dataVersion;
  int entries;
  PhraseCount slots[TABLE_SLOTS];
} PhraseCache;

/* Per statement: each phrase's IDF, the average row length, and a frequency array reused row by row. */
typedef struct Bm25Data {
  int phrases;
  double averageLength;
  double *idf;
  double *frequency;
} Bm25Data;

static void clearCache(PhraseCache *cache) {
  for (int i = 0; i < TABLE_SLOTS; i++) {
    sqlite3_free(cache->slots[i].key);
    cache->slots[i].key = 0;
  }
  cache->entries = 0;
}

static void destroyCache(void *pointer) {
  clearCache((PhraseCache *)pointer);
  sqlite3_free(pointer);
}

static uint32_t hashOf(const char *key, int length) {
  uint32_t hash = 2166136261u; /* FNV-1a */
  for (int i = 0; i < length; i++) {
    hash ^= (unsigned char)key[i];
    hash *= 16777619u;
  }
  return hash;
}

static int countRow(const Fts5ExtensionApi *api, Fts5Context *fts, void *userData) {
  (void)api;
  (void)fts;
  (*(sqlite3_int64 *)userData)++;
  return SQLITE_OK;
}

/* The phrase's tokens as one key (each token followed by a 0 byte), in *key (sqlite3_malloc'ed). */
static int phraseKey(const Fts5ExtensionApi *api, Fts5Context *fts, int phrase, char **key, int *length) {
  int tokens = api->xPhraseSize(fts, phrase);
  int total = 0;
  for (int t = 0; t < tokens; t++) {
    const char *token;
    int size;
    int rc = api->xQueryToken(fts, phrase, t, &token, &size);
    if (rc != SQLITE_OK) return rc;
    total += size + 1;
  }
  char *buffer = sqlite3_malloc(total > 0 ? total : 1);
  if (buffer == 0) return SQLITE_NOMEM;
  int at = 0;
  for (int t = 0; t < tokens; t++) {
    const char *token;
    int size;
    int rc = api->xQueryToken(fts, phrase, t, &token, &size);
    if (rc != SQLITE_OK) {
      sqlite3_free(buffer);
      return rc;
    }
    memcpy(buffer + at, token, (size_t)size);
    at += size;
    buffer[at++] = 0;
  }
  *key = buffer;
  *length = total;
  return SQLITE_OK;
}

/* The number of rows holding `phrase`: from the cache when `cache` is given and holds it, else counted. */
static int phraseHits(const Fts5ExtensionApi *api, Fts5Context *fts, PhraseCache *cache, int phrase,
                      sqlite3_int64 *hits) {
  if (cache == 0) {
    *hits = 0;
    return api->xQueryPhrase(fts, phrase, hits, countRow);
  }
  char *key;
  int length;
  int rc = phraseKey(api, fts, phrase, &key, &length);
  if (rc != SQLITE_OK) return rc;
  uint32_t slot = hashOf(key, length) & (TABLE_SLOTS - 1);
  while (cache->slots[slot].key != 0) {
    PhraseCount *entry = &cache->slots[slot];
    if (entry->keyLength == length && memcmp(entry->key, key, (size_t)length) == 0) {
      sqlite3_free(key);
      *hits = entry->hits;
      return SQLITE_OK;
    }
    slot = (slot + 1) & (TABLE_SLOTS - 1);
  }
  *hits = 0;
  rc = api->xQueryPhrase(fts, phrase, hits, countRow);
  if (rc != SQLITE_OK) {
    sqlite3_free(key);
    return rc;
  }
  if (cache->entries >= TABLE_MOST) {
    /* Full: start again (a catalogue with this many distinct phrases in use pays a count now and then). */
    clearCache(cache);
    slot = hashOf(key, length) & (TABLE_SLOTS - 1);
  }
  cache->slots[slot].key = key;
  cache->slots[slot].keyLength = length;
  cache->slots[slot].hits = *hits;
  cache->entries++;
  return SQLITE_OK;
}

/* The cache to use for this statement, emptied first if the database changed; NULL inside a transaction. */
static PhraseCache *currentCache(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context) {
  /* xQueryToken, which names a phrase's tokens, came with version 3 of the API (SQLite 3.45). */
  if (api->iVersion < 3) return 0;
  sqlite3 *db = sqlite3_context_db_handle(context);
  if (!sqlite3_get_autocommit(db)) return 0;
  unsigned int version = 0;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_DATA_VERSION, &version) != SQLITE_OK) return 0;
  PhraseCache *cache = (PhraseCache *)api->xUserData(fts);
  if (cache->dataVersion != version) {
    clearCache(cache);
    cache->dataVersion = version;
  }
  return cache;
}

static int statementData(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                         Bm25Data **out) {
  Bm25Data *data = (Bm25Data *)api->xGetAuxdata(fts, 0);
  if (data != 0) {
    *out = data;
    return SQLITE_OK;
  }
  int phrases = api->xPhraseCount(fts);
  data = sqlite3_malloc64(sizeof(Bm25Data) + (sqlite3_uint64)phrases * 2 * sizeof(double));
  if (data == 0) return SQLITE_NOMEM;
  memset(data, 0, sizeof(Bm25Data) + (size_t)phrases * 2 * sizeof(double));
  data->phrases = phrases;
  data->idf = (double *)&data[1];
  data->frequency = &data->idf[phrases];

  sqlite3_int64 rows = 0;
  sqlite3_int64 tokens = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
  if (rc == SQLITE_OK) data->averageLength = (double)tokens / (double)rows;
  PhraseCache *cache = rc == SQLITE_OK ? currentCache(api, fts, context) : 0;
  for (int i = 0; rc == SQLITE_OK && i < phrases; i++) {
    sqlite3_int64 hits = 0;
    rc = phraseHits(api, fts, cache, i, &hits);
    if (rc == SQLITE_OK) {
      /* IDF = log((N - n + 0.5) / (n + 0.5)), and 1e-6 where that is not positive, as bm25() has it. */
      double idf = log((rows - hits + 0.5) / (hits + 0.5));
      data->idf[i] = idf <= 0.0 ? 1e-6 : idf;
    }
  }
  if (rc == SQLITE_OK) rc = api->xSetAuxdata(fts, data, sqlite3_free);
  else sqlite3_free(data);
  if (rc == SQLITE_OK) *out = data;
  return rc;
}

static void drawdownBm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context, int argc,
                         sqlite3_value **argv) {
  const double k1 = 1.2;
  const double b = 0.75;
  Bm25Data *data = 0;
  int rc = statementData(api, fts, context, &data);
  int instances = 0;
  if (rc == SQLITE_OK) {
    memset(data->frequency, 0, sizeof(double) * (size_t)data->phrases);
    rc = api->xInstCount(fts, &instances);
  }
  for (int i = 0; rc == SQLITE_OK && i < instances; i++) {
    int phrase, column, offset;
    rc = api->xInst(fts, i, &phrase, &column, &offset);
    if (rc == SQLITE_OK) data->frequency[phrase] += argc > column ? sqlite3_value_double(argv[column]) : 1.0;
  }
  double length = 0.0;
  if (rc == SQLITE_OK) {
    int size;
    rc = api->xColumnSize(fts, -1, &size);
    length = (double)size;
  }
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(context, rc);
    return;
  }
  double score = 0.0;
  for (int i = 0; i < data->phrases; i++) {
    double f = data->frequency[i];
    score += data->idf[i] * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + b * length / data->averageLength)));
  }
  sqlite3_result_double(context, -1.0 * score);
}

static fts5_api *fts5Of(sqlite3 *db) {
  fts5_api *api = 0;
  sqlite3_stmt *statement = 0;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0) == SQLITE_OK) {
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
  }
  sqlite3_finalize(statement);
  return api;
}

/* The entry point SQLite derives from the file name build/drawdown-bm25.so: "sqlite3_" + its letters + "_init". */
int sqlite3_drawdownbm_init(sqlite3 *db, char **error, const sqlite3_api_routines *routines) {
  SQLITE_EXTENSION_INIT2(routines);
  fts5_api *fts5 = fts5Of(db);
  if (fts5 == 0 || fts5->iVersion < 2) {
    *error = sqlite3_mprintf("drawdown_bm25 needs FTS5");
    return SQLITE_ERROR;
  }
  PhraseCache *cache = sqlite3_malloc(sizeof(PhraseCache));
  if (cache == 0) return SQLITE_NOMEM;
  memset(cache, 0, sizeof(PhraseCache));
  return fts5->xCreateFunction(fts5, "drawdown_bm25", cache, drawdownBm25, destroyCache);
}
