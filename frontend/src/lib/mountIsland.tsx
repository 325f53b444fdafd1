import type { ComponentType } from "react";
import { createRoot } from "react-dom/client";

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
    createRoot(element).render(<Component {...props} />);
  });
}
