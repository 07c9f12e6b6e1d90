/**
 * @module
 * Products, prices, customers, addresses, usage balance units and meters: create, get, list,
 * update, archive. Archiving is an update to `status: 'archived'`; nothing is deleted.
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import type {
  Address,
  CreateAddressInput,
  CreateCustomerInput,
  CreateMeterInput,
  CreatePriceInput,
  CreateProductInput,
  CreateUsageBalanceUnitInput,
  Customer,
  ListAddressesParams,
  ListCustomersParams,
  ListMetersParams,
  ListPricesParams,
  ListProductsParams,
  ListUsageBalanceUnitsParams,
  Meter,
  Price,
  Product,
  UpdateAddressInput,
  UpdateCustomerInput,
  UpdateMeterInput,
  UpdatePriceInput,
  UpdateProductInput,
  UpdateUsageBalanceUnitInput,
  UsageBalanceUnit,
} from '../types/catalogue.js';
import type { CustomerAuthToken } from '../types/tokens.js';
import { Resource, segment } from './resource.js';

/** The five calls of a top-level catalogue entity. */
abstract class CatalogueResource<Entity, CreateInput, UpdateInput, ListParams> extends Resource {
  protected abstract readonly path: string;

  /** Lists entities, lazily paged. Most lists default to `status: ['active']`. */
  list(params?: ListParams, options?: RequestOptions): Collection<Entity> {
    return this.collection<Entity>(this.path, params ?? undefined, options);
  }

  create(input: CreateInput, options?: RequestOptions): Promise<Entity> {
    return this.data({ method: 'POST', path: this.path, body: input, ...options });
  }

  get(id: string, options?: RequestOptions): Promise<Entity> {
    return this.data({ method: 'GET', path: `${this.path}/${segment(id)}`, ...options });
  }

  update(id: string, input: UpdateInput, options?: RequestOptions): Promise<Entity> {
    return this.data({ method: 'PATCH', path: `${this.path}/${segment(id)}`, body: input, ...options });
  }

  /** Sets `status` to `archived`. */
  archive(id: string, options?: RequestOptions): Promise<Entity> {
    return this.data({
      method: 'PATCH',
      path: `${this.path}/${segment(id)}`,
      body: { status: 'archived' },
      ...options,
    });
  }
}

export class ProductsResource extends CatalogueResource<
  Product,
  CreateProductInput,
  UpdateProductInput,
  ListProductsParams
> {
  protected readonly path = '/products';
}

export class PricesResource extends CatalogueResource<Price, CreatePriceInput, UpdatePriceInput, ListPricesParams> {
  protected readonly path = '/prices';
}

export class CustomersResource extends CatalogueResource<
  Customer,
  CreateCustomerInput,
  UpdateCustomerInput,
  ListCustomersParams
> {
  protected readonly path = '/customers';

  /** A customer authentication token for the hosted checkout, valid 30 minutes. */
  generateAuthToken(customerId: string, options?: RequestOptions): Promise<CustomerAuthToken> {
    return this.data({ method: 'POST', path: `${this.path}/${segment(customerId)}/auth-token`, ...options });
  }
}

export class UsageBalanceUnitsResource extends CatalogueResource<
  UsageBalanceUnit,
  CreateUsageBalanceUnitInput,
  UpdateUsageBalanceUnitInput,
  ListUsageBalanceUnitsParams
> {
  protected readonly path = '/usage-balance-units';
}

export class MetersResource extends CatalogueResource<Meter, CreateMeterInput, UpdateMeterInput, ListMetersParams> {
  protected readonly path = '/meters';
}

/** A customer's addresses, at `/customers/{customerId}/addresses`. */
export class AddressesResource extends Resource {
  #path(customerId: string, id?: string): string {
    const base = `/customers/${segment(customerId)}/addresses`;
    return id === undefined ? base : `${base}/${segment(id)}`;
  }

  list(customerId: string, params?: ListAddressesParams, options?: RequestOptions): Collection<Address> {
    return this.collection<Address>(this.#path(customerId), params, options);
  }

  create(customerId: string, input: CreateAddressInput, options?: RequestOptions): Promise<Address> {
    return this.data({ method: 'POST', path: this.#path(customerId), body: input, ...options });
  }

  get(customerId: string, id: string, options?: RequestOptions): Promise<Address> {
    return this.data({ method: 'GET', path: this.#path(customerId, id), ...options });
  }

  update(customerId: string, id: string, input: UpdateAddressInput, options?: RequestOptions): Promise<Address> {
    return this.data({ method: 'PATCH', path: this.#path(customerId, id), body: input, ...options });
  }

  archive(customerId: string, id: string, options?: RequestOptions): Promise<Address> {
    return this.data({ method: 'PATCH', path: this.#path(customerId, id), body: { status: 'archived' }, ...options });
  }
}
