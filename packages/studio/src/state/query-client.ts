/**
 * The Studio's data-fetching cache (TanStack Query): server state is fetched, cached, refreshed and
 * dropped by it instead of by hand-written effects. Pages move onto it one by one (docs/studio.md
 * "Talking to the API"); the editor's referrers and presence are on it.
 */
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The API's errors are answers (a 403, a 404), not flukes: show them at once rather than retry.
      retry: false,
      // A person editing does not want data swapped under them because they switched windows.
      refetchOnWindowFocus: false,
    },
  },
});
