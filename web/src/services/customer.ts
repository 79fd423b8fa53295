/** Customers (docs/decisions.md#organisation). */
import { get, post } from './request';
import type { Customer, Option, PageResult } from './typings';

export type CustomerInput = Pick<Customer, 'name' | 'code' | 'logo' | 'contact' | 'telephone' | 'address' | 'platform' | 'readOnly'> & { id?: number };

/** Query keys beside their service: roots to refresh, factories for one query. */
export const customerKeys = {
  list: ['customer/list'] as const,
  details: ['customer'] as const,
  detail: (id: number) => ['customer', id] as const,
  options: ['customer/options'] as const,
};

const base = '/api/auth/sys/customer';
export const listCustomers = (q: Record<string, unknown>) => post<PageResult<Customer>>(`${base}/list`, q);
export const getCustomer = (id: number) => get<Customer>(`${base}/detail`, { id });
export const addCustomer = (c: CustomerInput) => post<{ id: number }>(`${base}/add`, c);
export const updateCustomer = (c: CustomerInput) => post<null>(`${base}/update`, c);
export const deleteCustomers = (ids: number[]) => post<null>(`${base}/delete`, { ids });
export const customerOptions = () => get<Option[]>(`${base}/options`);
