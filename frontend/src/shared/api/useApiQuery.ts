/** A read of the API through TanStack Query: keyed by its path and parameters (see `apiKey`), so
 * writes and live events that invalidate the path refresh it. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { http } from "./http";
import { apiKey } from "./query";

type Params = Record<string, string | number | boolean | undefined | null>;

export function useApiQuery<T>(path: string, params?: Params, options: { enabled?: boolean; silent?: boolean } = {}) {
  return useQuery({
    queryKey: apiKey(path, params),
    queryFn: async ({ signal }) => (await http.get<T>(path, { query: params, signal, silent: options.silent })).data,
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
