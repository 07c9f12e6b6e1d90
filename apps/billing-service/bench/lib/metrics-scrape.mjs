/**
 * @module
 * Reads the service's Prometheus `/metrics` (on its operations address) the way a scraper does,
 * so the bench can print the service's own backlog and lag beside the figures it measures.
 */

/** The samples of `/metrics` without labels, by metric name. */
export async function scrapeMetrics(opsUrl) {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  const samples = {};
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+) (\S+)$/.exec(line);
    if (match) samples[match[1]] = Number(match[2]);
  }
  return {
    pendingUsageEvents: samples.drawdown_usage_events_pending,
    drawdownLagSeconds: samples.drawdown_usage_drawdown_lag_seconds,
    outboxPending: samples.drawdown_outbox_events_pending,
    webhooksPending: samples.drawdown_webhook_notifications_pending,
  };
}
