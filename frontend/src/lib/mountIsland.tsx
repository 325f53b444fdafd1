import type { ComponentType } from "react";
import { createRoot } from "react-dom/client";

/** Mount `Component` on every `[data-island="name"]` element, with props from its json_script sibling. */
export function mountIsland<P extends object>(name: string, Component: ComponentType<P>): void {
  document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`).forEach((element) => {
    const propsId = element.dataset.propsId;
    const script = propsId ? document.getElementById(propsId) : null;
    const props = (script?.textContent ? JSON.parse(script.textContent) : {}) as P;
    createRoot(element).render(<Component {...props} />);
  });
}
