/**
 * @module
 * Placeholder replaced below.
 */
export function openApiDocument(): Record<string, unknown> {
  return {};
}
