import { QueryClient } from '@tanstack/react-query';
import { isCancelled, RequestError } from './request';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, e) => !isCancelled(e) && !(e instanceof RequestError && e.kind !== 'network') && count < 1,
      refetchOnWindowFocus: false,
    },
  },
});
