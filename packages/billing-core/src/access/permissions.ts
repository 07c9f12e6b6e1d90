/**
 * @module
 * API key permissions: `<resource>.read` and `<resource>.write`, each write implying its read.
 * The usage-based billing permissions are offered only to accounts in early access.
 */

/** Resources with one action only have that one: customer auth tokens are issued, never read back. */
const RESOURCE_ACTIONS = {
  product: ['read', 'write'],
  price: ['read', 'write'],
  customer: ['read', 'write'],
  customer_portal_session: ['read', 'write'],
  address: ['read', 'write'],
  business: ['read', 'write'],
  client_token: ['read', 'write'],
  customer_auth_token: ['write'],
  subscription: ['read', 'write'],
  transaction: ['read', 'write'],
  adjustment: ['read', 'write'],
  discount: ['read', 'write'],
  payment_method: ['read', 'write'],
  event: ['read'],
  notification_setting: ['read', 'write'],
  notification: ['read', 'write'],
  notification_simulation: ['read', 'write'],
  report: ['read', 'write'],
  metrics: ['read'],
  sandbox_clock: ['read', 'write'],
  usage_balance_unit: ['read', 'write'],
  meter: ['read', 'write'],
  usage_balance: ['read'],
  usage_event: ['read', 'write'],
} as const satisfies Record<string, readonly ('read' | 'write')[]>;

type Resource = keyof typeof RESOURCE_ACTIONS;
export type Permission = {
  [R in Resource]: `${R}.${(typeof RESOURCE_ACTIONS)[R][number]}`;
}[Resource];

export const ALL_PERMISSIONS: readonly Permission[] = Object.entries(RESOURCE_ACTIONS).flatMap(([resource, actions]) =>
  actions.map((action) => `${resource}.${action}` as Permission),
);

const EARLY_ACCESS_RESOURCES: ReadonlySet<string> = new Set<Resource>([
  'usage_balance_unit',
  'meter',
  'usage_balance',
  'usage_event',
]);

export function isPermission(value: string): value is Permission {
  return (ALL_PERMISSIONS as readonly string[]).includes(value);
}

/** True for the usage-based billing permissions that only early-access accounts may hold. */
export function requiresEarlyAccess(permission: Permission): boolean {
  return EARLY_ACCESS_RESOURCES.has(permission.slice(0, permission.indexOf('.')));
}

/** The permissions an account may grant: all of them in early access, the others otherwise. */
export function grantablePermissions(earlyAccess: boolean): readonly Permission[] {
  return earlyAccess ? ALL_PERMISSIONS : ALL_PERMISSIONS.filter((permission) => !requiresEarlyAccess(permission));
}

/** Whether a key holding `granted` may perform an operation that needs `needed`. */
export function permits(granted: readonly Permission[], needed: Permission): boolean {
  if (granted.includes(needed)) return true;
  if (!needed.endsWith('.read')) return false;
  const write = `${needed.slice(0, -'.read'.length)}.write`;
  return (granted as readonly string[]).includes(write);
}
