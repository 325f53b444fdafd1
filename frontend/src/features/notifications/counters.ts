/** Menu counters rendered by the server, refreshed from the API or the live socket. */
import { counterText } from "../../shared/format";
import { api, call } from "../../shared/api/client";

export type Counters = Record<string, number>;

function show(element: HTMLElement, value: number): void {
  const text = counterText(value);
  element.textContent = text;
  element.hidden = text === "";
}

/** Write `counters` into the sidebar's `[data-counter]` badges and their groups' sums. */
export function applyCounters(counters: Counters, root: ParentNode = document): void {
  root.querySelectorAll<HTMLElement>("[data-counter]").forEach((element) => {
    const name = element.dataset.counter ?? "";
    if (!(name in counters)) return;
    const value = Number(counters[name]) || 0;
    element.dataset.value = String(value);
    show(element, value);
  });
  root.querySelectorAll<HTMLElement>("[data-group-counters]").forEach((element) => {
    const names = (element.dataset.groupCounters ?? "").split(" ").filter(Boolean);
    const sum = names.reduce((total, name) => {
      const badge = root.querySelector<HTMLElement>(`[data-counter="${name}"]`);
      return total + (Number(badge?.dataset.value ?? 0) || 0);
    }, 0);
    show(element, sum);
  });
}

/** Reload the counters from GET /api/dashboard/pending-counter (every role but renter). */
export async function refreshCounters(): Promise<void> {
  const answer = await call(api.GET("/api/dashboard/pending-counter"), { silent: true });
  applyCounters({ ...answer.data });
}

export const COUNTERS_CHANGED = "dashboard:counters-changed";

/** Ask the shell to reload the counters (after approving or rejecting a booking, for example). */
export function countersChanged(): void {
  window.dispatchEvent(new CustomEvent(COUNTERS_CHANGED));
}
