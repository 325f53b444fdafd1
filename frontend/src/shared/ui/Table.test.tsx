import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Badge, BADGE_STATUSES, badgeLabel } from "./Badge";
import { pageWindows } from "./pagination";
import { DataTable, NO_DATA, type RowAction, visibleActions } from "./Table";

interface Row {
  _id: string;
  title: string;
  status: string;
  can?: { approve?: boolean; reject?: boolean };
}

const columns = [
  { key: "title", header: "Listing", render: (row: Row) => row.title },
  { key: "status", header: "Status", render: (row: Row) => <Badge status={row.status} /> },
];

describe("DataTable", () => {
  it('says "No data found" when empty and shows a spinner while loading', () => {
    const { rerender } = render(<DataTable<Row> columns={columns} rows={[]} rowKey={(r) => r._id} />);
    expect(screen.getByText(NO_DATA)).toBeVisible();
    rerender(<DataTable<Row> columns={columns} rows={[]} rowKey={(r) => r._id} loading />);
    expect(screen.queryByText(NO_DATA)).toBeNull();
    expect(screen.getByRole("status", { name: "Loading" })).toBeTruthy();
  });

  it("draws the tabs it is given and reports the one chosen", () => {
    const onTab = vi.fn();
    render(
      <DataTable<Row>
        columns={columns}
        rows={[]}
        rowKey={(r) => r._id}
        tabs={[
          { value: "all", label: "All" },
          { value: "pending", label: "Pending" },
        ]}
        tab="pending"
        onTab={onTab}
      />,
    );
    expect(screen.getByRole("tab", { name: "Pending" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "All" })).toHaveAttribute("aria-selected", "false");
    fireEvent.click(screen.getByRole("tab", { name: "All" }));
    expect(onTab).toHaveBeenCalledWith("all");
  });

  it("shows a row's actions only where its can flag and the condition allow", () => {
    const approve = vi.fn();
    const actions: RowAction<Row>[] = [
      { label: "View", href: (row) => `/listing-detail/${row._id}` },
      { label: "Approve", can: "approve", onClick: approve },
      { label: "Reject", can: "reject", when: (row) => row.status === "pending", onClick: () => {} },
    ];
    const rows: Row[] = [
      { _id: "1", title: "Loft", status: "pending", can: { approve: true, reject: true } },
      { _id: "2", title: "Hall", status: "approved", can: { approve: false, reject: true } },
      { _id: "3", title: "Desk", status: "pending" },
    ];
    render(<DataTable<Row> columns={columns} rows={rows} rowKey={(r) => r._id} actions={actions} />);
    const [, first, second, third] = screen.getAllByRole("row");
    expect(within(first).getAllByRole("button").map((b) => b.textContent)).toEqual(["Approve", "Reject"]);
    expect(within(first).getByRole("link", { name: "View" })).toHaveAttribute("href", "/listing-detail/1");
    expect(within(second).queryAllByRole("button")).toHaveLength(0);
    expect(within(third).queryAllByRole("button")).toHaveLength(0);
    fireEvent.click(within(first).getByRole("button", { name: "Approve" }));
    expect(approve).toHaveBeenCalledWith(rows[0]);
    expect(visibleActions(actions, rows[2]).map((a) => a.label)).toEqual(["View"]);
  });

  it("puts more than two actions behind a menu button named after the row when asked", () => {
    const actions: RowAction<Row>[] = ["Edit", "Delete", "Activate"].map((label) => ({ label, onClick: () => {} }));
    render(
      <DataTable<Row>
        columns={columns}
        rows={[{ _id: "1", title: "Loft", status: "approved" }]}
        rowKey={(r) => r._id}
        actions={actions}
        actionMenu
        rowLabel={(row) => row.title}
      />,
    );
    expect(screen.getByText("", { selector: "summary[aria-label='Actions for Loft']" })).toBeTruthy();
  });

  it("labels every cell with its column so rows read as cards on small screens", () => {
    render(<DataTable<Row> columns={columns} rows={[{ _id: "1", title: "Loft", status: "pending" }]} rowKey={(r) => r._id} />);
    const cells = screen.getAllByRole("cell");
    expect(cells.map((cell) => cell.getAttribute("data-label"))).toEqual(["Listing", "Status"]);
  });

  it("pages in the windows of spec 9 and says which page is current", () => {
    const onPage = vi.fn();
    render(<DataTable<Row> columns={columns} rows={[{ _id: "1", title: "Loft", status: "pending" }]} rowKey={(r) => r._id} page={7} totalPages={20} onPage={onPage} />);
    const pager = screen.getByRole("navigation", { name: "Pages" });
    expect(within(pager).getByRole("button", { name: "Page 7" })).toHaveAttribute("aria-current", "page");
    fireEvent.click(within(pager).getByRole("button", { name: "Next page" }));
    expect(onPage).toHaveBeenCalledWith(8);
    expect(pageWindows(7, 20)).toEqual([1, "...", 6, 7, 8, "...", 20]);
    expect(pageWindows(2, 20)).toEqual([1, 2, 3, 4, 5, "...", 20]);
    expect(pageWindows(19, 20)).toEqual([1, "...", 16, 17, 18, 19, 20]);
    expect(pageWindows(3, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("offers a View all link", () => {
    render(<DataTable<Row> caption="Recent invoices" viewAllHref="/invoices" columns={columns} rows={[]} rowKey={(r) => r._id} />);
    expect(screen.getByRole("link", { name: "View all" })).toHaveAttribute("href", "/invoices");
    expect(screen.getByRole("region", { name: "Recent invoices" })).toBeTruthy();
  });
});

describe("Badge", () => {
  it("has a label and a colour for every status of spec 4.5", () => {
    for (const status of BADGE_STATUSES) {
      const { container, unmount } = render(<Badge status={status} />);
      const badge = container.querySelector(".badge")!;
      expect(badge.textContent).not.toBe("");
      expect(badge.className).not.toContain("badge--undefined");
      unmount();
    }
    expect(badgeLabel("inprogress")).toBe("In Progress");
    expect(badgeLabel("availableSoon")).toBe("Available Soon");
    expect(badgeLabel("onhold", "payout")).toBe("Pending");
  });
});
