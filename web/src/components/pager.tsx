import type { ComponentChildren } from 'preact';

/** Previous/next over an offset-paged list; `total` is null while the first page loads. */
export function Pager({
  label,
  status,
  statusId,
  offset,
  limit,
  total,
  onOffset,
  children,
}: {
  label: string;
  status: string;
  statusId?: string;
  offset: number;
  limit: number;
  total: number | null;
  onOffset: (offset: number) => void;
  children?: ComponentChildren;
}) {
  return (
    <nav class="pager" aria-label={label}>
      <span id={statusId} role="status">
        {status}
      </span>
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        Previous
      </button>
      <button type="button" disabled={total === null || offset + limit >= total} onClick={() => onOffset(offset + limit)}>
        Next
      </button>
      {children}
    </nav>
  );
}
