/**
 * Migrations apply once, in order, atomically; a second run applies nothing, and several
 * processes opening one PostgreSQL database at once all succeed.
 */
import { MIGRATIONS, migrate, openDatabase, openStore, type StoreConfig } from '@drawdown/billing-store';
import { createTestStorage, ENGINES, storeConfigOf, type TestStorage } from '@drawdown/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { aProduct, freshScope } from '../support/builders.js';

describe.each(ENGINES)('%s: migrations', (engine) => {
  let storage: TestStorage | undefined;

  async function freshConfig(): Promise<StoreConfig> {
    storage = await createTestStorage(engine);
    return storeConfigOf(storage);
  }

  afterEach(async () => {
    await storage?.dispose();
    storage = undefined;
  });

  it('applies every migration on an empty database, then nothing on a second run', async () => {
    const database = openDatabase(await freshConfig());
    try {
      expect(await migrate(database)).toEqual(MIGRATIONS.map((migration) => migration.id));
      expect(await migrate(database)).toEqual([]);
      const rows = await database.all<{ id: string }>('select id from schema_migrations order by id');
      expect(rows.map((row) => row.id)).toEqual(MIGRATIONS.map((migration) => migration.id).sort());
    } finally {
      await database.close();
    }
  });

  it('keeps the data when a store is opened again on the same database', async () => {
    const config = await freshConfig();
    const scope = freshScope();
    const product = aProduct();
    const first = await openStore(config);
    await first.products.insert(scope, product);
    await first.close();
    const second = await openStore(config);
    try {
      expect(await second.products.findById(scope, product.id)).toEqual(product);
    } finally {
      await second.close();
    }
  });

  it('applies a new migration once, after the ones already applied', async () => {
    const database = openDatabase(await freshConfig());
    const extra = { id: '9999-test-extra', statements: () => ['create table test_extra (id text primary key)'] };
    try {
      await migrate(database);
      expect(await migrate(database, [...MIGRATIONS, extra])).toEqual([extra.id]);
      expect(await migrate(database, [...MIGRATIONS, extra])).toEqual([]);
      await database.run('insert into test_extra (id) values (?)', ['x']);
    } finally {
      await database.close();
    }
  });

  it('fills the subscription filter columns of rows stored before them from their documents', async () => {
    const database = openDatabase(await freshConfig());
    const before = MIGRATIONS.filter((migration) => migration.id !== '0180-subscription-filter-columns');
    try {
      await migrate(database, before);
      const body = (items: string[], nextBilledAt: string | null) =>
        JSON.stringify({ nextBilledAt, items: items.map((id) => ({ price: { id } })) });
      const insert = 'insert into subscriptions (account_id, environment, id, body) values (?, ?, ?, ?)';
      await database.run(insert, ['acc_1', 'sandbox', 'sub_two', body(['pri_a', 'pri_b'], '2026-04-01T00:00:00.000Z')]);
      await database.run(insert, ['acc_1', 'sandbox', 'sub_none', body([], null)]);
      expect(await migrate(database)).toEqual(['0180-subscription-filter-columns']);
      const rows = await database.all<{ id: string; price_ids: string; next_billed_at: string | null }>(
        'select id, price_ids, next_billed_at from subscriptions order by id',
      );
      expect(rows).toEqual([
        { id: 'sub_none', price_ids: '  ', next_billed_at: null },
        { id: 'sub_two', price_ids: ' pri_a pri_b ', next_billed_at: '2026-04-01T00:00:00.000Z' },
      ]);
    } finally {
      await database.close();
    }
  });

  it('gives adjustments stored before tax_rates_used the rates of the lines they adjust', async () => {
    const database = openDatabase(await freshConfig());
    const before = MIGRATIONS.filter((migration) => migration.id !== '0242-adjustment-tax-rates-used');
    try {
      await migrate(database, before);
      const lineItems = [
        { id: 'txnitm_a', taxRate: '0.2' },
        { id: 'txnitm_b', taxRate: '0.1' },
      ];
      await database.run('insert into transactions (account_id, environment, id, body) values (?, ?, ?, ?)', [
        'acc_1',
        'sandbox',
        'txn_1',
        JSON.stringify({ details: { lineItems } }),
      ]);
      const item = (itemId: string, subtotal: string, tax: string, total: string) => ({
        itemId,
        totals: { subtotal, tax, total },
      });
      const old = {
        id: 'adj_1',
        transactionId: 'txn_1',
        items: [
          item('txnitm_a', '500', '100', '600'),
          item('txnitm_b', '100', '10', '110'),
          item('txnitm_a', '5', '1', '6'),
        ],
      };
      await database.run('insert into adjustments (account_id, environment, id, body) values (?, ?, ?, ?)', [
        'acc_1',
        'sandbox',
        'adj_1',
        JSON.stringify(old),
      ]);
      expect(await migrate(database)).toEqual(['0242-adjustment-tax-rates-used']);
      const row = await database.get<{ body: string }>('select body from adjustments where id = ?', ['adj_1']);
      expect(JSON.parse(String(row?.body))).toEqual({
        ...old,
        taxRatesUsed: [
          { taxRate: '0.2', totals: { subtotal: '505', tax: '101', total: '606' } },
          { taxRate: '0.1', totals: { subtotal: '100', tax: '10', total: '110' } },
        ],
      });
    } finally {
      await database.close();
    }
  });

  it('records no tax as the live choice of accounts that had live transactions before ADR 1439', async () => {
    const database = openDatabase(await freshConfig());
    const before = MIGRATIONS.filter((migration) => migration.id !== '0243-live-tax-choice');
    try {
      await migrate(database, before);
      const insert = 'insert into transactions (account_id, environment, id, body) values (?, ?, ?, ?)';
      await database.run(insert, ['acc_old', 'live', 'txn_1', '{}']);
      await database.run(insert, ['acc_old', 'live', 'txn_2', '{}']);
      await database.run(insert, ['acc_sandbox', 'sandbox', 'txn_3', '{}']);
      await database.run(insert, ['acc_chosen', 'live', 'txn_4', '{}']);
      await database.run('insert into tax_settings (account_id, environment, body) values (?, ?, ?)', [
        'acc_chosen',
        'live',
        '{"rateSource":"location"}',
      ]);
      expect(await migrate(database)).toEqual(['0243-live-tax-choice']);
      const rows = await database.all<{ account_id: string; environment: string; body: string }>(
        'select account_id, environment, body from tax_settings order by account_id',
      );
      expect(rows.map((row) => [row.account_id, row.environment])).toEqual([
        ['acc_chosen', 'live'],
        ['acc_old', 'live'],
      ]);
      expect(rows[0]?.body).toBe('{"rateSource":"location"}');
      expect(JSON.parse(String(rows[1]?.body))).toMatchObject({
        rateSource: 'account',
        defaultRate: '0',
        countryRates: [],
        updatedAt: expect.any(String),
      });
    } finally {
      await database.close();
    }
  });

  it('stores the email kinds turned off, so kinds added after a list was saved are on (ADR 1504)', async () => {
    const database = openDatabase(await freshConfig());
    const without = (...ids: string[]) => MIGRATIONS.filter((migration) => !ids.includes(migration.id));
    const insert = 'insert into email_settings (account_id, environment, body) values (?, ?, ?)';
    const first = [
      'invoice_issued',
      'payment_failed',
      'subscription_past_due',
      'subscription_canceled',
      'subscription_cancel_scheduled',
      'subscription_paused',
      'subscription_resumed',
      'subscription_plan_changed',
      'refund_issued',
      'credit_note_issued',
    ];
    try {
      // Saved by a version with email but before the reminders (migration 0245): receipts off.
      await migrate(database, without('0245-email-reminders', '0251-email-kinds-turned-off'));
      const savedBefore = new Date(Date.now() - 1000).toISOString();
      await database.run(insert, [
        'acc_old',
        'live',
        JSON.stringify({ senderName: 'Old', enabledEmails: first, updatedAt: savedBefore }),
      ]);
      await migrate(database, without('0251-email-kinds-turned-off'));
      // Saved once the reminders existed: only receipts on, so the reminders were turned off too.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await database.run(insert, [
        'acc_new',
        'sandbox',
        JSON.stringify({ enabledEmails: ['receipt'], updatedAt: new Date().toISOString() }),
      ]);
      expect(await migrate(database)).toEqual(['0251-email-kinds-turned-off']);
      const rows = await database.all<{ account_id: string; body: string }>(
        'select account_id, body from email_settings order by account_id',
      );
      const bodies = rows.map((row) => JSON.parse(row.body) as Record<string, unknown>);
      expect(bodies[0]).toEqual({
        disabledEmails: [...first, 'renewal_upcoming', 'trial_ending', 'card_expiring'],
        updatedAt: expect.any(String),
      });
      expect(bodies[1]).toEqual({ senderName: 'Old', disabledEmails: ['receipt'], updatedAt: savedBefore });
    } finally {
      await database.close();
    }
  });

  it('keeps every usage event and ledger entry with its sequence when SQLite drops autoincrement (0253), and numbers on from the largest', async () => {
    const database = openDatabase(await freshConfig());
    const before = MIGRATIONS.filter((migration) => migration.id !== '0253-sqlite-usage-rowid-sequences');
    const insertEvent = `insert into usage_events (sequence, account_id, environment, id, customer_id, action, event_key,
      occurred_at, quantity, accepted_at, drawdowns, idempotency_hash) values (?, 'acc_1', 'live', ?, 'cus_1', 'api_call', ?,
      '2026-11-29T12:00:00.000Z', '1', '2026-11-29T12:00:00.001Z', '[]', ?)`;
    const insertEntry = `insert into usage_ledger (sequence, account_id, environment, balance_id, entry)
      values (?, 'acc_1', 'live', 'ubal_1', ?)`;
    try {
      await migrate(database, before);
      for (const sequence of [3, 7, 41]) {
        await database.run(insertEvent, [sequence, `uev_${sequence}`, `k${sequence}`, Buffer.from([sequence])]);
        await database.run(insertEntry, [sequence, `{"n":${sequence}}`]);
      }
      await database.run('insert into usage_pending (sequence) values (41)');
      expect(await migrate(database)).toEqual(['0253-sqlite-usage-rowid-sequences']);
      const events = await database.all<{ sequence: number | string; id: string; idempotency_hash: Uint8Array }>(
        'select sequence, id, idempotency_hash from usage_events order by sequence',
      );
      expect(events.map((row) => [Number(row.sequence), row.id, Buffer.from(row.idempotency_hash)[0]])).toEqual(
        [3, 7, 41].map((sequence) => [sequence, `uev_${sequence}`, sequence]),
      );
      const entries = await database.all<{ sequence: number | string; entry: string }>(
        'select sequence, entry from usage_ledger order by sequence',
      );
      expect(entries.map((row) => [Number(row.sequence), row.entry])).toEqual(
        [3, 7, 41].map((sequence) => [sequence, `{"n":${sequence}}`]),
      );
      const pending = await database.all<{ sequence: number | string }>('select sequence from usage_pending');
      expect(pending.map((row) => Number(row.sequence))).toEqual([41]);
      // The idempotency index, made again, still refuses a stored key.
      await expect(database.run(insertEvent, [50, 'uev_dup', 'dup', Buffer.from([7])])).rejects.toThrow();
      if (engine === 'sqlite') {
        // Rows inserted without a sequence number on from the largest, as autoincrement did.
        await database.run(
          `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at, quantity,
            accepted_at, drawdowns, idempotency_hash) values ('acc_1', 'live', 'uev_next', 'cus_1', 'api_call', 'next',
            '2026-11-29T12:00:00.000Z', '1', '2026-11-29T12:00:00.001Z', '[]', ?)`,
          [Buffer.from([99])],
        );
        await database.run(
          "insert into usage_ledger (account_id, environment, balance_id, entry) values ('acc_1', 'live', 'ubal_1', '{}')",
        );
        expect(await database.all("select sequence from usage_events where id = 'uev_next'")).toEqual([
          { sequence: 42 },
        ]);
        expect(await database.all('select max(sequence) as sequence from usage_ledger')).toEqual([{ sequence: 42 }]);
        const tables = await database.all<{ sql: string }>(
          "select sql from sqlite_master where type = 'table' and name in ('usage_events', 'usage_ledger')",
        );
        expect(tables).toHaveLength(2);
        for (const table of tables) expect(table.sql).not.toMatch(/autoincrement/i);
        expect(
          await database.all("select name from sqlite_sequence where name in ('usage_events', 'usage_ledger')"),
        ).toEqual([]);
      }
    } finally {
      await database.close();
    }
  });

  it('leaves no trace of a migration that fails part-way', async () => {
    const database = openDatabase(await freshConfig());
    const broken = {
      id: '9999-test-broken',
      statements: () => ['create table test_half (id text primary key)', 'this is not sql'],
    };
    try {
      await migrate(database);
      await expect(migrate(database, [...MIGRATIONS, broken])).rejects.toThrow();
      const applied = await database.all<{ id: string }>('select id from schema_migrations where id = ?', [broken.id]);
      expect(applied).toEqual([]);
      await expect(database.all('select * from test_half')).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});

// Several service processes share one PostgreSQL database; SQLite is one process's file.
describe.each(ENGINES.filter((engine) => engine === 'postgres'))('%s: concurrent start-up', (engine) => {
  let storage: TestStorage | undefined;

  async function freshConfig(): Promise<StoreConfig> {
    storage = await createTestStorage(engine);
    return { engine: 'postgres', url: storage.databaseUrl ?? '' };
  }

  afterEach(async () => {
    await storage?.dispose();
    storage = undefined;
  });

  it('lets several stores open the same empty database at once', async () => {
    const config = await freshConfig();
    const stores = await Promise.all([openStore(config), openStore(config), openStore(config)]);
    try {
      const scope = freshScope();
      const product = aProduct();
      await stores[0]?.products.insert(scope, product);
      for (const store of stores) expect(await store.products.findById(scope, product.id)).toEqual(product);
      const database = openDatabase(config);
      const rows = await database.all<{ id: string }>('select id from schema_migrations');
      await database.close();
      expect(rows).toHaveLength(MIGRATIONS.length);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
