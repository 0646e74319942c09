/** A settings page's list: one row per item, each with a confirmed delete (if any) in its last cell. */
import type { QueryKey } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { DeleteButton } from "./shared";

export interface ItemColumn<T> {
  header: string;
  /** Right-aligned, in the header and the cells. */
  numeric?: boolean;
  /** The cells' class, when not numeric. */
  className?: string;
  cell: (item: T) => ReactNode;
}

/** How an item is deleted: the button's text, the question asked first, and the api call. */
export interface ItemDeletion<T> {
  label?: string;
  /** Whether this item can be deleted (all can, unless told). */
  allowed?: (item: T) => boolean;
  question: (item: T) => string;
  remove: (item: T) => Promise<unknown>;
}

type RowAttributes = { className?: string } & Record<`data-${string}`, string>;

interface Props<T> {
  /** The table's accessible name. */
  label: string;
  items: T[];
  columns: ItemColumn<T>[];
  rowKey: (item: T) => string;
  /** The row's `data-*` attributes, which tests find rows by, and its class. */
  rowData: (item: T) => RowAttributes;
  /** Refreshed once an item is deleted. */
  queryKey: QueryKey;
  /** Without it, the items cannot be deleted here. */
  deletion?: ItemDeletion<T>;
}

export function ItemTable<T>({ label, items, columns, rowKey, rowData, queryKey, deletion }: Props<T>) {
  return (
    <table className="grid" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} className={column.numeric ? "num" : undefined}>
              {column.header}
            </th>
          ))}
          {deletion && (
            <th>
              <span className="sr-only">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={rowKey(item)} {...rowData(item)}>
            {columns.map((column) => (
              <td key={column.header} className={column.numeric ? "num" : column.className}>
                {column.cell(item)}
              </td>
            ))}
            {deletion && (
              <td>
                {(deletion.allowed?.(item) ?? true) && (
                  <DeleteButton label={deletion.label} question={deletion.question(item)} queryKey={queryKey} remove={() => deletion.remove(item)} />
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
