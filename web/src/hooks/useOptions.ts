/** Option lists for selects (customers, sites, models, roles), cached by TanStack Query. */
import { useQuery } from '@tanstack/react-query';
import { customerOptions, customerKeys } from '../services/customer';
import { siteOptions, siteKeys } from '../services/site';
import { allModels, modelKeys } from '../services/deviceModel';
import { allRoles, roleKeys } from '../services/role';
import { allGroups, catalogueKeys } from '../services/catalogue';

const toOpts = (l: { id: number; name: string }[] | undefined) => (l ?? []).map((o) => ({ value: o.id, label: o.name }));

export function useCustomerOptions(enabled = true) {
  const q = useQuery({ queryKey: customerKeys.options, queryFn: customerOptions, enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
export function useSiteOptions(customerId?: number, enabled = true) {
  const q = useQuery({ queryKey: siteKeys.optionsOf(customerId ?? 0), queryFn: () => siteOptions(customerId), enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
export function useModelOptions(enabled = true) {
  const q = useQuery({ queryKey: modelKeys.all, queryFn: allModels, enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
export function useRoleOptions(enabled = true) {
  const q = useQuery({ queryKey: roleKeys.all, queryFn: allRoles, enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
export function useGroupOptions(enabled = true) {
  const q = useQuery({ queryKey: catalogueKeys.allGroups, queryFn: allGroups, enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
