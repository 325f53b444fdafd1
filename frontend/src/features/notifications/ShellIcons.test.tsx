import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ShellIcons } from "./ShellIcons";

describe("shell icons", () => {
  it("puts an icon in each named slot of the sidebar instead of its letter", () => {
    const sidebar = document.createElement("nav");
    sidebar.innerHTML = `
      <a data-route="dashboard"><span class="dash-icon" data-icon="home">D</span>Dashboards</a>
      <a data-route="message"><span class="dash-icon" data-icon="chat">M</span>Message</a>
      <a data-route="moderators"><span class="dash-icon" data-icon="shield">M</span>Moderators</a>
      <a><span class="dash-icon" data-icon="unknown">X</span>Other</a>`;
    document.body.appendChild(sidebar);
    render(<ShellIcons root={sidebar} />);
    const slots = Array.from(sidebar.querySelectorAll<HTMLElement>("[data-icon]"));
    expect(slots.slice(0, 3).map((slot) => slot.textContent)).toEqual(["", "", ""]);
    expect(slots.slice(0, 3).every((slot) => slot.querySelector("svg[aria-hidden='true']"))).toBe(true);
    // Two entries that both start with M no longer look alike.
    expect(slots[1].innerHTML).not.toBe(slots[2].innerHTML);
    expect(slots[3].textContent).toBe("X");
  });
});
