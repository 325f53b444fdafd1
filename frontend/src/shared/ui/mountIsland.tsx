/**
 * The one way an island starts: find `[data-island="Name"]` elements, read their props from the
 * `json_script` named by `data-props-id`, and render the component inside the page's error
 * boundary ("Oops! something went wrong") and TanStack Query provider (one client per page).
 *
 * An island's props are typed by its name: the server builds them through the serializer
 * `IslandProps<Name>` (apps/dashboard/contracts.py), whose OpenAPI component is generated into
 * schema.d.ts, and a server test checks every page's props against it. A prop renamed on the server
 * and not here fails `tsc`.
 */
import { QueryClientProvider } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { createRoot } from "react-dom/client";
import { queryClient } from "../api/query";
import type { components } from "../api/schema";
import { ErrorBoundary } from "./ErrorBoundary";

type Schemas = components["schemas"];

/** Every island's props by island name, from the `IslandProps<Name>` components of the schema. */
export type IslandPropsByName = {
  [Key in keyof Schemas as Key extends `IslandProps${infer Name}` ? Name : never]: Schemas[Key];
};
export type IslandName = keyof IslandPropsByName;
export type IslandProps<Name extends IslandName> = IslandPropsByName[Name];

/** `text`, a `json_script`'s content, as the props of island `Name` ({} when absent or malformed). */
export function parseProps<Name extends IslandName>(_name: Name, text: string | null | undefined): IslandProps<Name> {
  try {
    // JSON.parse answers `any`: the server test holds the content to the island's schema.
    const props: IslandProps<Name> = JSON.parse(text || "{}");
    return props;
  } catch {
    const none: IslandProps<Name> = JSON.parse("{}");
    return none;
  }
}

/** The props of island `Name` that a template emitted with `json_script` under `id`. */
export function readProps<Name extends IslandName>(name: Name, id: string | undefined): IslandProps<Name> {
  const script = id ? document.getElementById(id) : null;
  return parseProps(name, script?.textContent);
}

/** Mount `Component` on every `[data-island="name"]` element, with props from its json_script sibling. */
export function mountIsland<Name extends IslandName>(name: Name, Component: ComponentType<IslandProps<Name>>): void {
  document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`).forEach((element) => {
    const props = readProps(name, element.dataset.propsId);
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
