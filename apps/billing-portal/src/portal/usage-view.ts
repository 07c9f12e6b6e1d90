/**
 * @module
 * The customer's usage balances as bars: per unit, what was used, what remains and any overage
 * (seed 000: allowance = used + remaining; overage is usage past the allowance, recorded and not
 * billed). The bar's scale is allowance + overage, so a bar over its allowance shows how far over.
 */
import { DrawdownApiError, type UsageBalance } from '@drawdown/sdk';
import { dateText } from './billing-history.js';
import { type Translate, translator } from './messages.js';
import type { PortalClient } from './portal-client.js';
import {
  addDecimals,
  basisPoints,
  decimalToString,
  formatQuantity,
  isPositive,
  maxDecimal,
  parseDecimal,
} from './quantities.js';

/** One unit's balance, formatted for the viewer. */
export interface UsageMeterView {
  readonly balanceId: string;
  readonly unitId: string;
  /** The unit's display name (`API calls`), or its id when the key may not read units. */
  readonly name: string;
  /** The plural of what is counted (`calls`); empty when unknown. */
  readonly unitName: string;
  /** Exact decimal strings. */
  readonly used: string;
  readonly remaining: string;
  readonly overage: string;
  readonly allowance: string;
  /** The same, in the viewer's locale. */
  readonly usedText: string;
  readonly remainingText: string;
  readonly overageText: string;
  readonly allowanceText: string;
  /** Shares of the bar in basis points (0 to 10000), of allowance + overage. */
  readonly usedShare: number;
  readonly remainingShare: number;
  readonly overageShare: number;
  /** One sentence a screen reader can say: `750 of 1,000 calls used, 250 left`. */
  readonly summary: string;
  /**
   * The figures above the bar. Past the allowance they count everything used, so 180 over an
   * allowance of 1,000 reads `1,180 used of 1,000: 180 over`, never `1,000 of 1,000 used`.
   */
  readonly figures: string;
  /** Past and current billing periods, oldest first (empty when the service has none to give). */
  readonly periods: readonly UsagePeriodView[];
  /**
   * What the overage costs and whether the next bill includes it; null within the allowance.
   * Drawdown records overage and never bills it (seed 000), so the note says so (ADR 0811).
   */
  readonly overageNote: string | null;
}

/** One billing period of a balance, formatted; shares are of the chart's tallest bar (basis points). */
export interface UsagePeriodView {
  readonly label: string;
  readonly current: boolean;
  readonly allowanceText: string;
  readonly usedText: string;
  readonly overageText: string;
  readonly withinShare: number;
  readonly overShare: number;
  readonly allowanceShare: number;
}

/** How long a unit's name is kept: names change rarely, and each read costs a call. */
const UNIT_NAME_TTL_MS = 10 * 60 * 1000;

interface UnitName {
  readonly name: string;
  readonly unitName: string;
  readonly at: number;
}

/** Unit names by id, shared by every request of one portal. */
export class UnitNameCache {
  readonly #names = new Map<string, UnitName>();

  constructor(private readonly now: () => number = Date.now) {}

  async nameOf(client: PortalClient, unitId: string): Promise<{ name: string; unitName: string }> {
    const cached = this.#names.get(unitId);
    if (cached && this.now() - cached.at < UNIT_NAME_TTL_MS) return cached;
    try {
      const unit = await client.usageBalanceUnits.get(unitId);
      const entry = { name: unit.name, unitName: unit.unitName ?? '', at: this.now() };
      if (this.#names.size > 1_000) this.#names.clear();
      this.#names.set(unitId, entry);
      return entry;
    } catch (error) {
      // A key without usage_balance_unit.read still shows the balance, named by its unit id.
      if (error instanceof DrawdownApiError && (error.status === 403 || error.status === 404)) {
        return { name: unitId, unitName: '' };
      }
      throw error;
    }
  }
}

function withUnit(quantity: string, unitName: string): string {
  return unitName ? `${quantity} ${unitName}` : quantity;
}

/** Builds one bar from a balance. */
export function toMeterView(
  balance: UsageBalance,
  names: { name: string; unitName: string },
  locale: string,
  t: Translate = translator('en'),
): UsageMeterView {
  const used = parseDecimal(balance.balance?.used?.total);
  const remaining = parseDecimal(balance.balance?.remaining?.total);
  const overage = parseDecimal(balance.balance?.overage?.total);
  const allowance = addDecimals(used, remaining);
  const scale = addDecimals(allowance, overage);
  // Everything consumed: what the allowance covered and what went past it.
  const consumed = addDecimals(used, overage);
  const text = {
    used: formatQuantity(decimalToString(consumed), locale),
    remaining: formatQuantity(decimalToString(remaining), locale),
    overage: formatQuantity(decimalToString(overage), locale),
    allowance: formatQuantity(decimalToString(allowance), locale),
  };
  const overageShare = basisPoints(overage, scale);
  const usedShare = basisPoints(used, scale);
  const over = isPositive(overage);
  const values = {
    used: text.used,
    allowance: withUnit(text.allowance, names.unitName),
    remaining: text.remaining,
    overage: withUnit(text.overage, names.unitName),
  };
  const summary = t(over ? 'usageSummaryOver' : 'usageSummary', values);
  const figures = t(over ? 'usageFiguresOver' : 'usageFigures', values);
  return {
    balanceId: balance.id,
    unitId: balance.usageBalanceUnitId,
    name: names.name,
    unitName: names.unitName,
    used: decimalToString(used),
    remaining: decimalToString(remaining),
    overage: decimalToString(overage),
    allowance: decimalToString(allowance),
    usedText: text.used,
    remainingText: text.remaining,
    overageText: text.overage,
    allowanceText: text.allowance,
    usedShare,
    overageShare,
    remainingShare: isPositive(remaining) ? Math.max(0, 10_000 - usedShare - overageShare) : 0,
    summary,
    figures,
    periods: [],
    overageNote: over ? t('overageNotBilled', { overage: values.overage }) : null,
  };
}

/** The customer's balances, one bar per unit, ordered by unit name. */
export async function loadUsage(
  client: PortalClient,
  customerId: string,
  locale: string,
  names: UnitNameCache,
  t: Translate = translator('en'),
): Promise<readonly UsageMeterView[]> {
  // At most one balance per unit, so one page of 200 holds them all (seed 000).
  const balances = (await client.usageBalances.list(customerId, { perPage: 200 }).next()).filter(
    (balance) => balance.customerId === undefined || balance.customerId === customerId,
  );
  const views = await Promise.all(
    balances.map(async (balance) => {
      const view = toMeterView(balance, await names.nameOf(client, balance.usageBalanceUnitId), locale, t);
      return { ...view, periods: await loadPeriods(client, customerId, balance.id, locale, t) };
    }),
  );
  return views.sort((left, right) => left.name.localeCompare(right.name) || left.unitId.localeCompare(right.unitId));
}

/** The most periods the chart shows. */
const CHART_PERIODS = 6;

/** A balance's periods as chart bars (oldest first), or none when the service does not offer them. */
async function loadPeriods(
  client: PortalClient,
  customerId: string,
  balanceId: string,
  locale: string,
  t: Translate,
): Promise<readonly UsagePeriodView[]> {
  let periods: Awaited<ReturnType<PortalClient['usageBalances']['periods']>>;
  try {
    periods = await client.usageBalances.periods(customerId, balanceId);
  } catch (error) {
    if (error instanceof DrawdownApiError && (error.status === 403 || error.status === 404)) return [];
    throw error;
  }
  const shown = periods.slice(0, CHART_PERIODS).reverse();
  let tallest = parseDecimal('0');
  for (const period of shown) {
    tallest = maxDecimal(tallest, maxDecimal(parseDecimal(period.used), parseDecimal(period.allowance)));
  }
  const share = (value: string) => (isPositive(tallest) ? basisPoints(parseDecimal(value), tallest) : 0);
  return shown.map((period) => {
    const used = parseDecimal(period.used);
    const overage = parseDecimal(period.overage);
    const within = isPositive(overage) ? parseDecimal(period.allowance) : used;
    const end = period.endsAt ? dateText(period.endsAt, locale) : '…';
    return {
      label: t('periodRange', { start: dateText(period.startsAt, locale), end }),
      current: period.endsAt === null,
      allowanceText: formatQuantity(period.allowance, locale),
      usedText: formatQuantity(period.used, locale),
      overageText: formatQuantity(period.overage, locale),
      withinShare: share(decimalToString(within)),
      overShare: share(period.overage),
      allowanceShare: share(period.allowance),
    };
  });
}
