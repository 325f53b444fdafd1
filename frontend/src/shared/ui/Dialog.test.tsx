import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { ConfirmDialog } from "./ConfirmDialog";
import { Dialog } from "./Dialog";

function Opener({ children }: { children: (close: () => void) => React.ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && children(() => setOpen(false))}
    </>
  );
}

describe("Dialog", () => {
  it("is a dialog named by its title, with ids of its own for two dialogs on a page", () => {
    render(
      <>
        <Dialog title="First" onClose={() => {}}>
          one
        </Dialog>
        <Dialog title="Second" onClose={() => {}}>
          two
        </Dialog>
      </>,
    );
    const first = screen.getByRole("dialog", { name: "First" });
    const second = screen.getByRole("dialog", { name: "Second" });
    expect(first.getAttribute("aria-labelledby")).not.toBe(second.getAttribute("aria-labelledby"));
  });

  it("closes with Escape (cancel) and with ×, and gives focus back to the opener", () => {
    render(<Opener>{(close) => <Dialog title="Edit" onClose={close}>body</Dialog>}</Opener>);
    const opener = screen.getByRole("button", { name: "Open" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Edit" });
    fireEvent(dialog, new Event("cancel", { cancelable: true }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);

    fireEvent.click(opener);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe("ConfirmDialog", () => {
  it("asks, answers yes or no, and describes itself with the message", () => {
    const confirm = vi.fn();
    const cancel = vi.fn();
    render(<ConfirmDialog title="Sign Out" message="Are you sure you want to sign out?" confirmLabel="Sign Out" onConfirm={confirm} onCancel={cancel} />);
    const dialog = screen.getByRole("dialog", { name: "Sign Out" });
    expect(dialog).toHaveAccessibleDescription("Are you sure you want to sign out?");
    fireEvent.click(screen.getByRole("button", { name: "Sign Out" }));
    expect(confirm).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it("waits while busy: both buttons disabled and Escape does nothing", () => {
    const cancel = vi.fn();
    render(<ConfirmDialog title="Approve Booking" message="Sure?" confirmLabel="Approve" busy onConfirm={() => {}} onCancel={cancel} />);
    for (const button of screen.getAllByRole("button").filter((b) => b.textContent !== "")) {
      if (button.getAttribute("aria-label") === "Close") continue;
      expect(button).toBeDisabled();
    }
    fireEvent(screen.getByRole("dialog"), new Event("cancel", { cancelable: true }));
    expect(cancel).not.toHaveBeenCalled();
  });
});
