import type { VNode } from 'preact';

/** A scrolling table: a string column is a plain column header, any other (a sort button) stands as given; `empty` shows once loaded rows are none. */
export function DataTable<T>({
  columns,
  rows,
  row,
  empty,
  class: className,
  describedBy,
}: {
  columns: (string | VNode)[];
  rows: T[] | null | undefined;
  row: (item: T, index: number) => VNode;
  empty?: string;
  class?: string;
  describedBy?: string;
}) {
  return (
    <>
      <div class="table-wrap">
        <table class={className} aria-describedby={describedBy}>
          <thead>
            <tr>
              {columns.map((column) =>
                typeof column === 'string' ? (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ) : (
                  column
                ),
              )}
            </tr>
          </thead>
          <tbody>{rows?.map((item, index) => row(item, index))}</tbody>
        </table>
      </div>
      {empty && rows?.length === 0 && <p>{empty}</p>}
    </>
  );
}
