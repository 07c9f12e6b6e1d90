/**
 * @module
 * The use cases of the catalogue, bound once: products, prices, customers with their addresses
 * and businesses, usage balance units and meters.
 */
import type { Context } from '../shared/context.js';
import type { UseCaseBase } from '../shared/use-case-base.js';
import { createAddress, getAddress, listAddresses, updateAddress } from './addresses.js';
import { createBusiness, getBusiness, listBusinesses, updateBusiness } from './businesses.js';
import { withPriceProduct, withProductPrices } from './catalogue-includes.js';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './customers.js';
import { createMeter, getMeter, listMeters, updateMeter } from './meters.js';
import { createPrice, getPrice, listPrices, updatePrice } from './prices.js';
import { createProduct, getProduct, listProducts, updateProduct } from './products.js';
import type { CatalogueSlice } from './repositories.js';
import {
  createUsageBalanceUnit,
  getUsageBalanceUnit,
  listUsageBalanceUnits,
  updateUsageBalanceUnit,
} from './usage-balance-units.js';

export function catalogueUseCases({ bind }: UseCaseBase<Context<CatalogueSlice>>) {
  return {
    createProduct: bind(createProduct),
    updateProduct: bind(updateProduct),
    getProduct: bind(getProduct),
    listProducts: bind(listProducts),
    createPrice: bind(createPrice),
    updatePrice: bind(updatePrice),
    getPrice: bind(getPrice),
    listPrices: bind(listPrices),
    createCustomer: bind(createCustomer),
    updateCustomer: bind(updateCustomer),
    getCustomer: bind(getCustomer),
    listCustomers: bind(listCustomers),
    createAddress: bind(createAddress),
    updateAddress: bind(updateAddress),
    getAddress: bind(getAddress),
    listAddresses: bind(listAddresses),
    createBusiness: bind(createBusiness),
    updateBusiness: bind(updateBusiness),
    getBusiness: bind(getBusiness),
    listBusinesses: bind(listBusinesses),
    withProductPrices: bind(withProductPrices),
    withPriceProduct: bind(withPriceProduct),
    createUsageBalanceUnit: bind(createUsageBalanceUnit),
    updateUsageBalanceUnit: bind(updateUsageBalanceUnit),
    getUsageBalanceUnit: bind(getUsageBalanceUnit),
    listUsageBalanceUnits: bind(listUsageBalanceUnits),
    createMeter: bind(createMeter),
    updateMeter: bind(updateMeter),
    getMeter: bind(getMeter),
    listMeters: bind(listMeters),
  };
}
