/**
 * The table of every list (spec 2.11): optional tabs (the ones the server allows this user,
 * remembered per prefix through useListState), an optional View all link, "No data found" when
 * empty, a spinner while loading, pagination (spec 9 windows), and row actions shown only where
 * the row's `can` flag (sent by the server) and the action's condition allow. Under 640 px each
 * row becomes a card with its column names, so nothing is cut off.
 */
import { ChevronRight, EllipsisVertical, type LucideIcon } from "lucide-react";
import { type ReactNode, useId } from "react";
import "./css/kit.css";
import { Pagination } from "./Pagination";
import { Spinner } from "./Spinner";

export interface Column<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
}

export interface Tab {
  value: string;
  label: string;
}

/** What the server says the user may do with a row: `{approve: true, reject: false, ...}`. */
export type CanFlags = Partial<Record<string, boolean>>;

export interface RowAction<Row> {
  label: string;
  icon?: LucideIcon;
  /** The `can` flag of the row that must be true for the action to show. */
  can?: string;
  /** A further condition on the row (a status, a field). */
  when?: (row: Row) => boolean;
  /** A link (View) or a handler (Approve). */
  href?: (row: Row) => string;
  onClick?: (row: Row) => void;
  tone?: "danger";
  /** An accessible name naming the row ("Open invoice INV-1"); defaults to the label. */
  ariaLabel?: (row: Row) => string;
}

export const NO_DATA = "No data found";

function canOf(row: unknown): CanFlags {
  const can = (row as { can?: unknown } | null)?.can;
  return can && typeof can === "object" ? (can as CanFlags) : {};
}

/** The actions a row shows: its `can` flag is true (when named) and its condition holds. */
export function visibleActions<Row>(actions: readonly RowAction<Row>[], row: Row): RowAction<Row>[] {
  const can = canOf(row);
  return actions.filter((action) => (!action.can || can[action.can] === true) && (!action.when || action.when(row)));
}

function ActionButton<Row>({ action, row }: { action: RowAction<Row>; row: Row }) {
  const Icon = action.icon;
  const className = `row-action${action.tone === "danger" ? " row-action--danger" : ""}`;
  const content = (
    <>
      {Icon && <Icon aria-hidden="true" size={16} />}
      {action.label}
    </>
  );
  const label = action.ariaLabel?.(row);
  if (action.href) {
    return (
      <a className={className} href={action.href(row)} aria-label={label}>
        {content}
      </a>
    );
  }
  return (
    <button type="button" className={className} onClick={() => action.onClick?.(row)} aria-label={label}>
      {content}
    </button>
  );
}

/** A row's actions: side by side, or behind a ⋮ menu button when `menu` is set and there are more than two. */
export function RowActions<Row>({ actions, row, menu, rowLabel }: { actions: readonly RowAction<Row>[]; row: Row; menu?: boolean; rowLabel?: string }) {
  const shown = visibleActions(actions, row);
  if (!shown.length) return null;
  if (menu && shown.length > 2) {
    return (
      <details className="row-menu">
        <summary aria-label={rowLabel ? `Actions for ${rowLabel}` : "Actions"}>
          <EllipsisVertical aria-hidden="true" size={18} />
        </summary>
        <div className="row-menu__list">
          {shown.map((action) => (
            <ActionButton key={action.label} action={action} row={row} />
          ))}
        </div>
      </details>
    );
  }
  return (
    <div className="row-actions">
      {shown.map((action) => (
        <ActionButton key={action.label} action={action} row={row} />
      ))}
    </div>
  );
}

export interface TabsProps {
  tabs: readonly Tab[];
  value: string;
  onChange: (value: string) => void;
  label?: string;
}

export function Tabs({ tabs, value, onChange, label = "Filter by status" }: TabsProps) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((item) => (
        <button
          key={item.value}
          type="button"
          role="tab"
          aria-selected={item.value === value}
          className="tab"
          onClick={() => onChange(item.value)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

export interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  loading?: boolean;
  /** The tabs this user may see (the server decides which). */
  tabs?: readonly Tab[];
  tab?: string;
  onTab?: (value: string) => void;
  actions?: readonly RowAction<Row>[];
  /** Put more than two actions behind a menu button. */
  actionMenu?: boolean;
  /** A name for a row in its actions menu ("Actions for Harbour Loft"). */
  rowLabel?: (row: Row) => string;
  page?: number;
  totalPages?: number;
  onPage?: (page: number) => void;
  viewAllHref?: string;
  caption?: string;
  /** Search box, selects: drawn beside the caption. */
  toolbar?: ReactNode;
  emptyText?: string;
  className?: string;
}

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, rowKey, loading, tabs, tab, onTab, actions, page = 1, totalPages = 1, onPage } = props;
  const captionId = useId();
  const hasActions = Boolean(actions?.length);
  const span = columns.length + (hasActions ? 1 : 0);
  return (
    <section className={`data-table${props.className ? ` ${props.className}` : ""}`} aria-labelledby={props.caption ? captionId : undefined}>
      {(props.caption || props.viewAllHref || props.toolbar) && (
        <header className="data-table__head">
          {props.caption && <h2 id={captionId}>{props.caption}</h2>}
          {props.toolbar}
          {props.viewAllHref && (
            <a className="data-table__all" href={props.viewAllHref}>
              View all
              <ChevronRight aria-hidden="true" size={16} />
            </a>
          )}
        </header>
      )}
      {tabs && tabs.length > 0 && <Tabs tabs={tabs} value={tab ?? tabs[0].value} onChange={(value) => onTab?.(value)} />}
      <div className="data-table__scroll">
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
          <tbody aria-busy={loading || undefined}>
            {loading ? (
              <tr>
                <td colSpan={span} className="data-table__state">
                  <Spinner size="large" />
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={span} className="data-table__state">
                  {props.emptyText ?? NO_DATA}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <td key={column.key} data-label={column.header}>
                      {column.render(row)}
                    </td>
                  ))}
                  {hasActions && (
                    <td className="data-table__actions" data-label="Action">
                      <RowActions actions={actions ?? []} row={row} menu={props.actionMenu} rowLabel={props.rowLabel?.(row)} />
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
