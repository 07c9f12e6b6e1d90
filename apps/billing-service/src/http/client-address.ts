import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The client's IP: the socket's peer, or with `trustProxy` the first X-Forwarded-For entry
 * (only behind a proxy that sets it; otherwise clients could pick their own bucket).
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // In-process requests (tests through app.request) have no socket.
    return 'in-process';
  }
}
