// Whether the SQLite and PostgreSQL catalogues answer the same queries identically (issue 38 item 3): every
// query of the labelled, dev and first held-out sets (the first held-out set is spent; QUALITY_SET=held-out-2 adds
// the second, for its final measurement only)
// through the HTTP API in process on the demo catalogue, at max_results 5 and 20. Prints the queries whose
// answers differ. Runs on the built dist; BENCH_POSTGRES_URL as quality-bench.mjs.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApp } from '../dist/app.js';
import { composeService } from '../dist/compose-service.js';
import { loadQuerySet } from '../dist/quality/query-set.js';

const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const files = ['uk-shopper-queries.json', 'dev-queries.json', 'held-out-queries.json'];
if (process.env.QUALITY_SET === 'held-out-2') files.push('held-out-2-queries.json');
const queries = files.flatMap((file) => loadQuerySet(new URL(`../quality/${file}`, import.meta.url)));
const unlimited = {
  requestsPerMinute: { free: 1e9, pro: 1e9, scale: 1e9 },
  monthlyLookups: { free: undefined, pro: undefined, scale: undefined },
};

async function admin(sql) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function answers(options) {
  const service = await composeService({ ...unlimited, ...options });
  const app = createApp(service.deps);
  const out = new Map();
  try {
    for (const { query } of queries) {
      for (const maxResults of [5, 20]) {
        const response = await app.request('/api/query', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, max_results: maxResults }),
        });
        const body = await response.json();
        out.set(
          `${query} @${maxResults}`,
          response.ok ? body.map((l) => `${l.product} [${l.network} ${l.price} ${l.offers ?? ''}]`) : [body.error.code],
        );
      }
    }
  } finally {
    await service.close();
  }
  return out;
}

const database = `price_search_agree_${randomBytes(4).toString('hex')}`;
await admin(`CREATE DATABASE ${database}`);
try {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const sqlite = await answers({});
  const postgres = await answers({ catalogueUrl: url.toString() });
  let differ = 0;
  for (const [key, left] of sqlite) {
    const right = postgres.get(key) ?? [];
    if (JSON.stringify(left) === JSON.stringify(right)) continue;
    differ += 1;
    console.log(`"${key}"\n  sqlite:   ${left.join(' | ')}\n  postgres: ${right.join(' | ')}`);
  }
  console.log(`${differ} of ${sqlite.size} answers differ between the engines (${queries.length} queries at 5 and 20)`);
  process.exitCode = differ === 0 ? 0 : 1;
} finally {
  await admin(`DROP DATABASE ${database} WITH (FORCE)`);
}
