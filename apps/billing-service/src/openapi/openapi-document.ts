/**
 * @module
 * Placeholder.
 */
export function openApiDocument(): Record<string, unknown> {
  return {};
}
