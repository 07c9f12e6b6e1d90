/**
 * @module
 * Entity ids are `<prefix>_` followed by 26 lowercase base-32 characters (a ULID), so they
 * sort by creation time and cursor pagination by id is pagination by age.
 */

export const ID_PREFIXES = {
  account: 'acc',
  apiKey: 'apikey',
  product: 'pro',
  price: 'pri',
  customer: 'ctm',
  address: 'add',
  business: 'biz',
  usageBalanceUnit: 'ubu',
  meter: 'mtr',
  usageBalance: 'ubl',
  usageEvent: 'uev',
  subscription: 'sub',
  transaction: 'txn',
  transactionItem: 'txnitm',
  adjustment: 'adj',
  discount: 'dsc',
  discountGroup: 'dsg',
  adjustmentItem: 'adjitm',
  paymentAttempt: 'payatt',
  paymentMethod: 'paymtd',
  sandboxPayment: 'sbxpay',
  sandboxMethod: 'sbxpm',
  event: 'evt',
  notification: 'ntf',
  notificationSetting: 'ntfset',
  notificationLog: 'ntflog',
  simulation: 'ntfsim',
  simulationRun: 'ntfsimrun',
  simulationRunEvent: 'ntfsimevt',
  report: 'rep',
  customerPortalSession: 'cpls',
  clientToken: 'ctkn',
  customerAuthToken: 'pca',
  emailJob: 'eml',
} as const;

export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];

const ID_BODY = /^[a-z\d]{26}$/;

/** Makes new ids; the service supplies an implementation (the core has no randomness). */
export interface IdGenerator {
  newId(prefix: IdPrefix): string;
}

/** True when `value` is a well-formed id with the given prefix. */
export function isIdOf(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_BODY.test(value.slice(prefix.length + 1));
}
