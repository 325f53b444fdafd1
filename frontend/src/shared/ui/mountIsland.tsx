/**
 * The one way an island starts: find `[data-island="Name"]` elements, read their props from the
 * `json_script` named by `data-props-id`, and render the component inside the page's error
 * boundary ("Oops! something went wrong") and TanStack Query provider (one client per page).
 */
import { QueryClientProvider } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { createRoot } from "react-dom/client";
import { queryClient } from "../api/query";
import { ErrorBoundary } from "./ErrorBoundary";

/** The props a template emitted with `json_script` under `id` ({} when absent or malformed). */
export function readProps<P extends object>(id: string | undefined): P {
  const script = id ? document.getElementById(id) : null;
  if (!script?.textContent) return {} as P;
  try {
    return JSON.parse(script.textContent) as P;
  } catch {
    return {} as P;
  }
}

/** Mount `Component` on every `[data-island="name"]` element, with props from its json_script sibling. */
export function mountIsland<P extends object>(name: string, Component: ComponentType<P>): void {
  document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`).forEach((element) => {
    const props = readProps<P>(element.dataset.propsId);
    element.replaceChildren();
    createRoot(element).render(
      <QueryClientProvider client={queryClient()}>
        <ErrorBoundary>
          <Component {...props} />
        </ErrorBoundary>
      </QueryClientProvider>,
    );
  });
}
