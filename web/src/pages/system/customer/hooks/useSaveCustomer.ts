import { useActions } from '../../../../hooks/useActions';
import { addCustomer, updateCustomer, type CustomerInput, customerKeys } from '../../../../services/customer';

/** Adds or updates a customer (list and detail) and refreshes both. */
export function useSaveCustomer() {
  const { run } = useActions();
  return (v: CustomerInput, id?: number) =>
    run(() => (id ? updateCustomer({ ...v, id }) : addCustomer(v)), { invalidate: [customerKeys.list, customerKeys.details] });
}
