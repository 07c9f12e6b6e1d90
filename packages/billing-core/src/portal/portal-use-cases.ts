/**
 * @module
 * The use cases of customer portal sessions (ADR 1440), bound once: the claims to sign, and a
 * signed token's claims accepted.
 */
import type { Context } from '../shared/context.js';
import type { UseCaseBase } from '../shared/use-case-base.js';
import { acceptPortalSession, createPortalSession } from './portal-sessions.js';
import type { PortalSlice } from './repositories.js';

export function portalUseCases({ bind }: UseCaseBase<Context<PortalSlice>>) {
  return {
    createPortalSession: bind(createPortalSession),
    acceptPortalSession: bind(acceptPortalSession),
  };
}
