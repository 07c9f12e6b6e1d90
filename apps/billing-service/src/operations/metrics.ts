/**
 * @module
 * Prometheus metrics (prom-client), one registry per running service: request rate, latency
 * and errors per route; the usage backlog and its age (the drawdown lag), the outbox and the
 * webhook queue, read from the database at scrape time so every process sharing a database
 * reports the same figures; webhook delivery outcomes; the PostgreSQL pool; and Node's own
 * figures (event-loop delay, heap, handles).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestRecord } from '../http/request-observer.js';

export interface QueueFigures {
  readonly pendingUsageEvents: number;
  /** `accepted_at` of the oldest event still waiting for its drawdown; null when none waits. */
  readonly oldestPendingUsageAcceptedAt: string | null;
  readonly eventsAwaitingFanOut: number;
  readonly notificationsAwaitingDelivery: number;
}

export interface PoolFigures {
  readonly max: number;
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/** The document pool's threads and documents (ADR 1491). */
export interface DocumentFigures {
  readonly threads: number;
  readonly queued: number;
  readonly inFlight: number;
  readonly completed: { readonly invoice: number; readonly logo: number };
  readonly refused: number;
}

export interface MetricsSources {
  /** The queue figures; read once per scrape. */
  readQueues(): Promise<QueueFigures>;
  readPool(): PoolFigures | null;
  /** The document pool's figures; absent, no document series. */
  readDocuments?: (() => DocumentFigures) | undefined;
  /** Milliseconds since the epoch, for the age of the oldest pending event. */
  now(): number;
}

export interface ServiceMetrics {
  readonly registry: Registry;
  observeRequest(record: RequestRecord): void;
  /** One webhook delivery attempt and how it ended (`delivered`, `failed`, `retrying`…). */
  observeWebhookAttempt(outcome: string): void;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export function createServiceMetrics(sources: MetricsSources): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });

  const requests = new Counter({
    name: 'drawdown_http_requests_total',
    help: 'Requests answered, by environment, method, route pattern and status code.',
    labelNames: ['environment', 'method', 'route', 'status'] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'drawdown_http_request_errors_total',
    help: 'Requests answered with a 5xx status, by environment, method and route pattern.',
    labelNames: ['environment', 'method', 'route'] as const,
    registers: [registry],
  });
  const requestSeries = new Map<
    string,
    {
      readonly count: { inc(): void };
      readonly latency: { observe(value: number): void };
      readonly error: { inc(): void } | undefined;
    }
  >();
  const latency = new Histogram({
    name: 'drawdown_http_request_duration_seconds',
    help: 'Time from the request reaching the application to its response being ready.',
    labelNames: ['environment', 'method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'drawdown_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts made by this process, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  // The queue gauges share one read per scrape. With the database down the read fails: the
  // gauges then report NaN (not a stale figure) and `drawdown_database_up` says 0, while the
  // rest of the scrape (requests, event loop) still answers.
  let pendingRead: Promise<QueueFigures | null> | undefined;
  const queues = () => {
    pendingRead ??= sources
      .readQueues()
      .catch(() => null)
      .finally(() => {
        pendingRead = undefined;
      });
    return pendingRead;
  };
  new Gauge({
    name: 'drawdown_database_up',
    help: '1 when the queue figures could be read from the database at this scrape, 0 otherwise.',
    registers: [registry],
    async collect() {
      this.set((await queues()) === null ? 0 : 1);
    },
  });
  const queueGauge = (name: string, help: string, pick: (figures: QueueFigures) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const figures = await queues();
        // NaN: unknown (Prometheus reads it as such), never a stale or made-up figure.
        if (figures === null) this.set(Number.NaN);
        else this.set(pick(figures));
      },
    });
  queueGauge(
    'drawdown_usage_events_pending',
    'Usage events accepted (answered 202) and not yet drawn down from balances: the ingestion backlog.',
    (figures) => figures.pendingUsageEvents,
  );
  queueGauge(
    'drawdown_usage_drawdown_lag_seconds',
    'Age of the oldest usage event still waiting for its drawdown; 0 when none waits.',
    (figures) =>
      figures.oldestPendingUsageAcceptedAt === null
        ? 0
        : Math.max(0, (sources.now() - Date.parse(figures.oldestPendingUsageAcceptedAt)) / 1000),
  );
  queueGauge(
    'drawdown_outbox_events_pending',
    'Events written to the outbox and not yet fanned out to notification destinations.',
    (figures) => figures.eventsAwaitingFanOut,
  );
  queueGauge(
    'drawdown_webhook_notifications_pending',
    'Webhook notifications waiting for delivery or for a retry.',
    (figures) => figures.notificationsAwaitingDelivery,
  );
  new Gauge({
    name: 'drawdown_database_pool_connections',
    help: 'PostgreSQL pool connections by state (max, total, idle, waiting callers); absent on SQLite.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const figures = sources.readPool();
      if (!figures) return;
      for (const state of ['max', 'total', 'idle', 'waiting'] as const) this.set({ state }, figures[state]);
    },
  });

  new Gauge({
    name: 'drawdown_document_pool',
    help: 'The document pool (PDFs, logo checks): threads started, documents waiting for a thread, documents asked for and not finished.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const figures = sources.readDocuments?.();
      if (!figures) return;
      this.set({ state: 'threads' }, figures.threads);
      this.set({ state: 'queued' }, figures.queued);
      this.set({ state: 'in_flight' }, figures.inFlight);
    },
  });
  // Counted by the pool; each scrape adds what it counted since the last one.
  const counted = { invoice: 0, logo: 0, refused: 0 };
  new Counter({
    name: 'drawdown_documents_total',
    help: 'Documents finished by the document pool (`invoice`: PDFs, `logo`: logo checks), and those refused with documents_busy (`refused`).',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      const figures = sources.readDocuments?.();
      if (!figures) return;
      const now = { invoice: figures.completed.invoice, logo: figures.completed.logo, refused: figures.refused };
      for (const outcome of ['invoice', 'logo', 'refused'] as const) {
        this.inc({ outcome }, now[outcome] - counted[outcome]);
        counted[outcome] = now[outcome];
      }
    },
  });

  return {
    registry,
    observeRequest(record) {
      // The label sets are few (routes × methods × statuses): each one's series is looked up once
      // and kept, instead of prom-client hashing the labels on every request.
      const key = `${record.environment} ${record.method} ${record.route} ${record.status}`;
      let series = requestSeries.get(key);
      if (!series) {
        const labels = { environment: record.environment, method: record.method, route: record.route };
        series = {
          count: requests.labels({ ...labels, status: String(record.status) }),
          latency: latency.labels(labels),
          error: record.status >= 500 ? errors.labels(labels) : undefined,
        };
        requestSeries.set(key, series);
      }
      series.count.inc();
      series.latency.observe(record.durationMs / 1000);
      series.error?.inc();
    },
    observeWebhookAttempt(outcome) {
      webhookAttempts.inc({ outcome });
    },
  };
}

/**
 * `drawdown_ready`: 1 while `/readyz` would answer 200 (a writable primary answers, the schema is
 * current, the workers run, no shutdown), 0 otherwise; read at scrape time. Prometheus cannot scrape
 * `/readyz` itself (it answers JSON), so the alert on readiness reads this gauge, and `up` of the
 * metrics scrape for a process that does not answer at all. Registered once per registry.
 */
export function registerReadinessGauge(registry: Registry, ready: () => Promise<boolean>): void {
  if (registry.getSingleMetric('drawdown_ready')) return;
  new Gauge({
    name: 'drawdown_ready',
    help: '1 while /readyz answers 200: a writable database primary, the current schema, workers running, not shutting down.',
    registers: [registry],
    async collect() {
      this.set((await ready()) ? 1 : 0);
    },
  });
}
