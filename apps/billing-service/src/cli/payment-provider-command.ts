/**
 * @module
 * `drawdown accounts payment-provider show|set|remove --account ID` (ADR 1420): which provider
 * the account's live environment pays through, and its credentials. Secrets are never printed
 * in full, not even right after they were set.
 */
import type { ProviderSettingsView, UseCases } from '@drawdown/billing-core';
import { printResult } from './output.js';

export const PAYMENT_PROVIDER_ACTIONS: readonly string[] = ['show', 'set', 'remove'];

export interface PaymentProviderOptions {
  readonly account: string;
  readonly provider: string | undefined;
  readonly secretKey: string | undefined;
  readonly webhookSecret: string | undefined;
  readonly publishableKey: string | undefined;
  readonly apiBase: string | undefined;
  /** `remove --force`: remove even while payments or refunds wait for the provider's answer. */
  readonly force: boolean;
  readonly json: boolean;
}

function printView(json: boolean, view: ProviderSettingsView): void {
  printResult(json, { payment_provider: view }, [
    ['Account', view.accountId],
    ['Environment', view.environment],
    ['Provider', view.provider],
    ['Secret key', view.secretKey],
    ['Webhook secret', view.webhookSecret],
    ['Publishable key', view.publishableKey ?? 'none: the checkout page cannot take cards'],
    ['API base', view.apiBase ?? 'https://api.stripe.com'],
    ['Webhook path', `${view.webhookPath}  (on the live address)`],
    ['Updated', view.updatedAt],
  ]);
}

export async function runPaymentProviderCommand(
  useCases: UseCases,
  action: string | undefined,
  options: PaymentProviderOptions,
): Promise<number> {
  switch (action) {
    case 'set': {
      const view = await useCases.configurePaymentProvider(options.account, {
        provider: options.provider ?? 'stripe',
        secretKey: options.secretKey,
        webhookSecret: options.webhookSecret,
        publishableKey: options.publishableKey,
        apiBase: options.apiBase,
      });
      printView(options.json, view);
      return 0;
    }
    case 'remove': {
      const { removed, leftInFlight } = await useCases.removePaymentProvider(options.account, { force: options.force });
      const left = leftInFlight
        ? `${leftInFlight.attempts.total} payment attempt(s) and ${leftInFlight.refunds.total} refund(s) left waiting, unsettled until settings are set again`
        : 'nothing';
      printResult(
        options.json,
        {
          removed,
          left_in_flight: leftInFlight && {
            payment_attempts: { ids: leftInFlight.attempts.ids, total: leftInFlight.attempts.total },
            refunds: { ids: leftInFlight.refunds.ids, total: leftInFlight.refunds.total },
          },
        },
        [
          ['Account', options.account],
          ['Removed', removed ? 'yes: live records reported payments again' : 'no provider was set'],
          ...(leftInFlight ? [['Left in flight', left] as [string, string]] : []),
        ],
      );
      return 0;
    }
    default: {
      const view = await useCases.showPaymentProvider(options.account);
      if (view) printView(options.json, view);
      else
        printResult(options.json, { payment_provider: null }, [
          ['Account', options.account],
          ['Provider', 'none: live records reported payments (POST /transactions/{id}/payments)'],
        ]);
      return 0;
    }
  }
}
