/**
 * The tracing adapter's `Spans` port (ADR 1452), exporting to an array in place of OTLP: a span opened inside another is its child; a worker batch is the root of its own
 * trace even when opened inside a request; an idle batch is dropped with every span under it; a
 * batch that did work is exported with its children, also those that end after it; a thrown error
 * marks the span failed and is rethrown. The polling worker marks its batches idle or not from
 * what they counted. `tracing.test.ts` checks the same against a real OTLP receiver, end to end.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { createTracing } from '../../src/operations/tracing.js';
import { IDLE_BATCH_ATTRIBUTE } from '../../src/operations/tracing-attributes.js';
import { createPollingWorker } from '../../src/workers/polling-worker.js';

/** Runs `run` with a tracing whose exports land in an array; the shutdown exports what is left. */
async function traced(run: (tracing: ReturnType<typeof createTracing>) => Promise<void>): Promise<ReadableSpan[]> {
  const exported: ReadableSpan[] = [];
  const exporter: SpanExporter = {
    export: (spans, done) => {
      exported.push(...spans);
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  const tracing = createTracing({ exporter, scheduledDelayMillis: 60_000 });
  await run(tracing);
  await tracing.shutdown();
  return exported;
}

const named = (spans: readonly ReadableSpan[], name: string) => {
  const found = spans.filter((span) => span.name === name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
};

describe('the tracing adapter’s spans', () => {
  it('makes a span opened inside a request its child, and a batch opened there a root', async () => {
    const spans = await traced(async (tracing) => {
      const request = tracing.start('POST', () => undefined);
      await request.run(async () => {
        await tracing.inSpan(
          'db.transaction',
          { kind: 'client', attributes: { 'db.system': 'sqlite' } },
          async () => {},
        );
        await tracing.inSpan('stray batch', { kind: 'internal', batch: 'stray' }, async (span) => {
          span.setAttributes({ [IDLE_BATCH_ATTRIBUTE]: false });
        });
      });
      request.end({
        method: 'POST',
        route: '/products',
        status: 201,
        environment: 'sandbox',
        requestId: 'r1',
        durationMs: 1,
        accountId: undefined,
      });
    });
    const server = named(spans, 'POST /products');
    const transaction = named(spans, 'db.transaction');
    expect(transaction.kind).toBe(SpanKind.CLIENT);
    expect(transaction.spanContext().traceId).toBe(server.spanContext().traceId);
    expect(transaction.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    const batch = named(spans, 'stray batch');
    expect(batch.parentSpanContext).toBeUndefined();
    expect(batch.spanContext().traceId).not.toBe(server.spanContext().traceId);
  });

  it('drops an idle batch with everything under it, and keeps a working one with children that end later', async () => {
    let release: () => void = () => {};
    const late = new Promise<void>((resolve) => {
      release = resolve;
    });
    let attempt: Promise<unknown> = Promise.resolve();
    const spans = await traced(async (tracing) => {
      await tracing.inSpan('idle batch', { kind: 'internal', batch: 'idle' }, async (span) => {
        await tracing.inSpan('db.transaction', { kind: 'client' }, async () => {});
        span.setAttributes({ [IDLE_BATCH_ATTRIBUTE]: true });
      });
      await tracing.inSpan('busy batch', { kind: 'internal', batch: 'busy' }, async (span) => {
        await tracing.inSpan('claim', { kind: 'client' }, async () => {});
        // Launched, not awaited: it outlives the batch, as a webhook attempt does.
        attempt = tracing.inSpan('POST', { kind: 'client' }, () => late);
        span.setAttributes({ [IDLE_BATCH_ATTRIBUTE]: false });
      });
      release();
      await attempt;
    });
    expect(spans.map((span) => span.name).sort()).toEqual(['POST', 'busy batch', 'claim']);
    const batch = named(spans, 'busy batch');
    for (const child of ['claim', 'POST']) {
      expect(named(spans, child).parentSpanContext?.spanId, child).toBe(batch.spanContext().spanId);
    }
  });

  it('marks a span failed when its work throws, and rethrows', async () => {
    const spans = await traced(async (tracing) => {
      await expect(
        tracing.inSpan('db.transaction', { kind: 'client' }, async () => {
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
    });
    expect(named(spans, 'db.transaction').status).toEqual({ code: SpanStatusCode.ERROR, message: 'rolled back' });
  });

  it('has the polling worker mark a batch idle only when it found and counted nothing', async () => {
    const results = [
      { found: false, counted: 0 },
      { found: false, counted: 2 },
      { found: true, counted: 0 },
    ];
    const spans = await traced(async (tracing) => {
      let next = 0;
      let stop: () => void = () => {};
      const done = new Promise<void>((resolve) => {
        stop = resolve;
      });
      const worker = createPollingWorker({
        name: 'test',
        idleMs: 1,
        onError: () => {},
        spans: tracing,
        runBatch: async (batch) => {
          const result = results[next];
          next += 1;
          if (!result) {
            stop();
            return false;
          }
          batch.count('items', result.counted);
          return result.found;
        },
      });
      worker.start();
      await done;
      await worker.stop();
    });
    const batches = spans.filter((span) => span.name === 'test batch');
    expect(
      batches.map((span) => [span.attributes['drawdown.batch.items'], span.attributes['drawdown.batch.found_work']]),
    ).toEqual([
      [2, false],
      [0, true],
    ]);
    for (const batch of batches) expect(batch.attributes['drawdown.worker']).toBe('test');
  });
});
