/** Option lists for selects (customers, sites, models, roles), cached by TanStack Query. */
import { useQuery } from '@tanstack/react-query';
import { customerOptions } from '../services/customer';
import { siteOptions } from '../services/site';
import { allModels } from '../services/deviceModel';
import { allRoles } from '../services/role';
import { allGroups } from '../services/catalogue';

const toOpts = (l: { id: number; name: string }[] | undefined) => (l ?? []).map((o) => ({ value: o.id, label: o.name }));

export function useCustomerOptions(enabled = true) {
  const q = useQuery({ queryKey: ['customer/options'], queryFn: customerOptions, enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
export function useSiteOptions(customerId?: number, enabled = true) {
  const q = useQuery({ queryKey: ['site/options', customerId ?? 0], queryFn: () => siteOptions(customerId), enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
export function useModelOptions(enabled = true) {
  const q = useQuery({ queryKey: ['dev/model/all'], queryFn: allModels, enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
export function useRoleOptions(enabled = true) {
  const q = useQuery({ queryKey: ['role/all'], queryFn: allRoles, enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
export function useGroupOptions(enabled = true) {
  const q = useQuery({ queryKey: ['dict/group/all'], queryFn: allGroups, enabled, staleTime: 30_000 });
  return toOpts(q.data);
}
