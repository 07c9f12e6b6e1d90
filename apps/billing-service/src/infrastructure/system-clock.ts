import type { Clock } from '@drawdown/billing-core';

export const systemClock: Clock = { now: () => Date.now() };
