/**
 * Where the service points portal links while no portal is configured: its own `/portal`, on the
 * environment's public address, which answers `customer_portal_not_configured` (ADR 1472).
 */
export const UNCONFIGURED_PORTAL_PATH = '/portal';
