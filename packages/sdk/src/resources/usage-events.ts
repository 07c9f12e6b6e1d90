/**
 * @module
 * Usage events: `report()` applies the seed's client rules (one event per request, unchanged
 * retries, the 429 hold, `expired` for a too-old timestamp); `send()` is a single raw attempt;
 * `openBuffer()` adds background sending that loses nothing on `close()`.
 */
import type { HttpClient } from '../core/http-client.js';
import type { Runtime } from '../core/runtime.js';
import type { UsageEventInput, UsageEventResult } from '../types/usage.js';
import {
  normaliseUsageEvent,
  type ReportUsageOptions,
  reportUsage,
  sendUsageEvent,
  type UsageReport,
  type UsageRetryPolicy,
  usageEventBody,
} from '../usage/report-usage.js';
import { UsageBuffer, type UsageBufferOptions } from '../usage/usage-buffer.js';
import { Resource } from './resource.js';

export class UsageEventsResource extends Resource {
  /** @internal */
  constructor(
    http: HttpClient,
    private readonly runtime: Runtime,
    private readonly policy: UsageRetryPolicy,
  ) {
    super(http);
  }

  /**
   * Reports one event, retrying as the seed's client rules say, and resolves with what became of
   * it: `accepted`, `rejected` (final), `expired` (too old; an earlier attempt may still count) or
   * `gave_up` (attempts exhausted; resend `report.event` later, unchanged).
   *
   * @example
   * const report = await drawdown.usageEvents.report({ customerId, action: 'api_call', quantity: '1' });
   * if (report.kind !== 'accepted') console.warn(report.kind, report);
   */
  report(event: UsageEventInput, options: ReportUsageOptions = {}): Promise<UsageReport> {
    return reportUsage(this.http, this.runtime, event, { ...this.policy, ...options.retry }, options.signal);
  }

  /**
   * One attempt, no retries: the service's result for the event. Throws `DrawdownApiError` or
   * `DrawdownConnectionError` like any other call.
   */
  async send(event: UsageEventInput, options: { readonly signal?: AbortSignal } = {}): Promise<UsageEventResult> {
    const { result } = await sendUsageEvent(
      this.http,
      usageEventBody(normaliseUsageEvent(event, this.runtime)),
      options.signal,
    );
    if (!result) throw new TypeError('The usage-events answer held no event result.');
    return result;
  }

  /** Opens a background buffer; it first resends whatever its store still holds. */
  openBuffer(options: UsageBufferOptions = {}): Promise<UsageBuffer> {
    return UsageBuffer.open(this.http, this.runtime, { ...this.policy, ...options.retry }, options);
  }
}
