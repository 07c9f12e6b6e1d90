/**
 * @module
 * Public entry of @drawdown/price-search: start the service, or compose its parts for embedding and tests.
 */

export { createApp } from './app.js';
export { BILLING_WEBHOOK_PATH } from './billing/billing-webhooks.js';
export { type DrawdownPlans, setupDrawdownPlans } from './billing/setup-drawdown-plans.js';
export {
  PriceSearchApiError,
  PriceSearchClient,
  type PriceSearchClientOptions,
  type SearchProductsRequest,
  type SearchProductsResponse,
} from './client/price-search-client.js';
export { RuleFollowingClient, type RuleFollowingResult, SearchFailedError } from './client/rule-following-client.js';
export { composeService, type EbayOptions, type PriceSearchService, type ServiceOptions } from './compose-service.js';
export { ebayOptionsFrom, type PriceSearchEnvironment, priceSearchFiles, readEnvironment } from './config.js';
export { ApiError, ERROR_CODES, type ErrorBody, type ErrorCode, STATUS_BY_CODE } from './http/api-error.js';
export type { Condition, Listing, WireListing } from './listing/listing.js';
export { NETWORKS, type NetworkId } from './listing/networks.js';
export type { HealthBody } from './lookup/service-health.js';
export { DEFAULT_WARM_UP_MS, type WarmUpReport } from './lookup/warm-up.js';
export { createMcpServer, type McpServerOptions } from './mcp/mcp-server.js';
export type { ClientIdentity, LookupId, LookupMeter, MeterDecision } from './metering/lookup-meter.js';
export { KEY_PLANS, type KeyPlan, MONTHLY_LOOKUPS, PLANS, type Plan, REQUESTS_PER_MINUTE } from './metering/plans.js';
export { broadenQuery } from './query/broaden-query.js';
export { type ParsedQuery, parseQuery, type SortIntent, withMaxPrice } from './query/parse-query.js';
export type { Connector, ConnectorDescription, ConnectorQuery } from './search/connector.js';
export type { Clock } from './shared/clock.js';
export { type RunningPriceSearch, type StartOptions, startPriceSearch } from './start-price-search.js';
