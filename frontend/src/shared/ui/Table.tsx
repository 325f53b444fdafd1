/**
 * The shared dashboard table (spec 2.11): tabs remembered per prefix in localStorage and
 * restricted by role, row actions restricted by role and by a row condition, "No data found",
 * a spinner while loading, pagination and an optional View all link.
 */
import { type ReactNode, useState } from "react";
import { Pagination } from "./Pagination";

export interface Column<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
}

export interface Tab {
  value: string;
  label: string;
  roles?: string[];
}

export interface RowAction<Row> {
  label: string;
  onClick: (row: Row) => void;
  roles?: string[];
  when?: (row: Row) => boolean;
}

const TAB_KEY = (prefix: string) => `dashboardTab:${prefix}`;

export function visibleTabs(tabs: Tab[], role: string): Tab[] {
  return tabs.filter((tab) => !tab.roles || tab.roles.includes(role));
}

export function visibleActions<Row>(actions: RowAction<Row>[], role: string, row: Row): RowAction<Row>[] {
  return actions.filter((action) => (!action.roles || action.roles.includes(role)) && (!action.when || action.when(row)));
}

/** The remembered tab of a prefix, if the role may still see it; else the first visible tab. */
export function initialTab(prefix: string, tabs: Tab[], role: string): string {
  const allowed = visibleTabs(tabs, role);
  let saved: string | null = null;
  try {
    saved = window.localStorage.getItem(TAB_KEY(prefix));
  } catch {
    saved = null;
  }
  return allowed.find((tab) => tab.value === saved)?.value ?? allowed[0]?.value ?? "";
}

export function useRememberedTab(prefix: string, tabs: Tab[], role: string): [string, (value: string) => void] {
  const [tab, setTab] = useState(() => initialTab(prefix, tabs, role));
  const choose = (value: string) => {
    setTab(value);
    try {
      window.localStorage.setItem(TAB_KEY(prefix), value);
    } catch {
      /* not remembered */
    }
  };
  return [tab, choose];
}

export interface DataTableProps<Row> {
  role: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  loading?: boolean;
  tabs?: Tab[];
  tab?: string;
  onTab?: (value: string) => void;
  actions?: RowAction<Row>[];
  page?: number;
  totalPages?: number;
  onPage?: (page: number) => void;
  viewAllHref?: string;
  caption?: string;
  toolbar?: ReactNode;
}

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { role, columns, rows, rowKey, loading, tabs, tab, onTab, actions, page = 1, totalPages = 1, onPage } = props;
  const shownTabs = tabs ? visibleTabs(tabs, role) : [];
  const hasActions = Boolean(actions?.length);
  return (
    <section className="dash-card dash-table">
      {(props.caption || props.viewAllHref || props.toolbar) && (
        <header className="dash-table__head">
          {props.caption && <h2>{props.caption}</h2>}
          {props.toolbar}
          {props.viewAllHref && (
            <a className="dash-table__all" href={props.viewAllHref}>
              View all
            </a>
          )}
        </header>
      )}
      {shownTabs.length > 0 && (
        <div className="dash-tabs" role="tablist">
          {shownTabs.map((item) => (
            <button
              key={item.value}
              type="button"
              role="tab"
              aria-selected={item.value === tab}
              className={`dash-tab${item.value === tab ? " is-active" : ""}`}
              onClick={() => onTab?.(item.value)}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
      <div className="dash-table__scroll">
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col">
                  {column.header}
                </th>
              ))}
              {hasActions && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {loading ? (
              <tr>
                <td colSpan={columns.length + (hasActions ? 1 : 0)} className="dash-table__state">
                  <span className="dash-spinner" role="status" aria-label="Loading" />
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length + (hasActions ? 1 : 0)} className="dash-table__state">
                  No data found
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <td key={column.key}>{column.render(row)}</td>
                  ))}
                  {hasActions && (
                    <td className="dash-table__actions">
                      {visibleActions(actions ?? [], role, row).map((action) => (
                        <button key={action.label} type="button" className="link-button" onClick={() => action.onClick(row)}>
                          {action.label}
                        </button>
                      ))}
                    </td>
                  )}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {onPage && !loading && <Pagination page={page} totalPages={totalPages} onPage={onPage} />}
    </section>
  );
}
