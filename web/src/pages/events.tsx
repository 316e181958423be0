import { useEffect, useRef, useState } from 'preact/hooks';
import { act, DASH, getJson, legacy, segment } from '../api';
import { DataTable } from '../components/data-table';
import { Pager } from '../components/pager';
import { age, statusName } from '../format';
import { History, Notice, StatusBadge, useLoad } from '../ui';
import type { PageProps } from './props';

interface EventRow {
  source: 'legacy' | 'v2';
  namespace: string;
  client: string;
  check: string;
  status: number;
  output: string;
  occurrences: number;
  history: number[];
  last_ok: number | null;
  timestamp: number;
  action: string;
  silenced: boolean;
  silenced_by: string[];
  subscriptions: string[];
}
interface Page {
  total: number;
  offset: number;
  limit: number;
  counts: Record<string, number>;
  items: EventRow[];
}

const COLUMNS = [
  ['status', 'Status'],
  ['client', 'Client'],
  ['check', 'Check'],
  ['occurrences', 'Occurrences'],
  ['last_ok', 'Last OK'],
  ['timestamp', 'Updated'],
] as const;
const FILTERS = { status: '', client: '', check: '', subscription: '', silenced: '', q: '' };

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function EventsPage({ generation }: PageProps) {
  const [filters, setFilters] = useState(FILTERS);
  const [sort, setSort] = useState<{ key: string; order: 'asc' | 'desc' }>({ key: 'status', order: 'desc' });
  const [offset, setOffset] = useState(0);
  const [limit, setLimit] = useState(50);
  const [message, setMessage] = useState<string | null>(null);
  const [silencing, setSilencing] = useState<EventRow | null>(null);
  const settled = useDebounced(filters, 250);
  const query = new URLSearchParams({
    ...Object.fromEntries(Object.entries(settled).filter(([, v]) => v)),
    sort: sort.key,
    order: sort.order,
    offset: String(offset),
    limit: String(limit),
  });
  const { value: page, error, reload } = useLoad(() => getJson<Page>(`${DASH}/events?${query}`), [query.toString(), generation]);
  useEffect(() => setOffset(0), [settled, limit]);
  const set = (key: keyof typeof FILTERS) => (e: Event) => setFilters({ ...filters, [key]: (e.currentTarget as HTMLInputElement).value });
  const sortBy = (key: string) =>
    setSort(sort.key === key ? { key, order: sort.order === 'asc' ? 'desc' : 'asc' } : { key, order: key === 'client' || key === 'check' ? 'asc' : 'desc' });
  const sortHeader = ([key, title]: (typeof COLUMNS)[number]) => <SortHeader key={key} id={key} title={title} sort={sort} onSort={sortBy} />;
  const done = (what: string) => (problem: string | null) => {
    setMessage(problem ? `${what} failed: ${problem}` : `${what}: done.`);
    reload();
  };
  const resolve = (row: EventRow) =>
    row.source === 'legacy'
      ? act('POST', legacy('/resolve'), { client: row.client, check: row.check }).then(done(`Resolve ${row.client}/${row.check}`))
      : act('DELETE', `/api/core/v2/namespaces/${segment(row.namespace)}/events/${segment(row.client)}/${segment(row.check)}`).then(
          done(`Resolve ${row.client}/${row.check}`),
        );
  const remove = (row: EventRow) => {
    if (!confirm(`Delete the event ${row.client}/${row.check}?`)) return;
    const path =
      row.source === 'legacy'
        ? legacy(`/events/${segment(row.client)}/${segment(row.check)}`)
        : `/api/core/v2/namespaces/${segment(row.namespace)}/events/${segment(row.client)}/${segment(row.check)}`;
    void act('DELETE', path).then(done(`Delete ${row.client}/${row.check}`));
  };
  return (
    <section aria-labelledby="events-filters">
      <h2 id="events-filters" class="visually-hidden">
        Filters
      </h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={filters.status} onChange={set('status')} name="status">
            <option value="">All</option>
            {[2, 1, 3, 0].map((s) => (
              <option key={s} value={String(s)}>
                {statusName(s)} ({page?.counts[String(s)] ?? 0})
              </option>
            ))}
          </select>
        </label>
        <label>
          Client
          <input value={filters.client} onInput={set('client')} name="client" type="search" />
        </label>
        <label>
          Check
          <input value={filters.check} onInput={set('check')} name="check" type="search" />
        </label>
        <label>
          Subscription
          <input value={filters.subscription} onInput={set('subscription')} name="subscription" type="search" />
        </label>
        <label>
          Silenced
          <select value={filters.silenced} onChange={set('silenced')} name="silenced">
            <option value="">Any</option>
            <option value="true">Silenced</option>
            <option value="false">Not silenced</option>
          </select>
        </label>
        <label>
          Output contains
          <input value={filters.q} onInput={set('q')} name="q" type="search" />
        </label>
      </form>
      {error && <Notice>{error}</Notice>}
      {message && <Notice kind="info">{message}</Notice>}
      <DataTable
        class="events"
        describedBy="events-count"
        columns={[...COLUMNS.slice(0, 3).map(sortHeader), 'Output', 'History', ...COLUMNS.slice(3).map(sortHeader), 'Actions']}
        rows={page?.items}
        empty="No open events match."
        row={(row) => (
          <tr
            key={`${row.source}/${row.namespace}/${row.client}/${row.check}`}
            data-client={row.client}
            data-check={row.check}
            data-silenced={String(row.silenced)}
          >
            <td>
              <StatusBadge status={row.status} />
              {row.silenced && (
                <span class="badge muted" title={`silenced by ${row.silenced_by.join(', ')}`}>
                  Silenced
                </span>
              )}
              {row.source === 'v2' && <span class="badge source">v2</span>}
            </td>
            <td>{row.client}</td>
            <td>
              <a href={`#/checks/${encodeURIComponent(row.check)}`}>{row.check}</a>
            </td>
            <td class="output">
              <details>
                <summary>{row.output.split('\n')[0] || '(no output)'}</summary>
                <pre>{row.output}</pre>
              </details>
            </td>
            <td>
              <History history={row.history} />
            </td>
            <td class="num">{row.occurrences}</td>
            <td>{age(row.last_ok)}</td>
            <td>{age(row.timestamp)}</td>
            <td class="actions">
              <button type="button" onClick={() => void resolve(row)} aria-label={`Resolve ${row.client}/${row.check}`}>
                Resolve
              </button>
              <button type="button" onClick={() => setSilencing(row)} aria-label={`Silence ${row.client}/${row.check}`} disabled={row.source !== 'legacy'}>
                Silence
              </button>
              <button type="button" class="danger" onClick={() => remove(row)} aria-label={`Delete ${row.client}/${row.check}`}>
                Delete
              </button>
            </td>
          </tr>
        )}
      />
      <Pager
        label="Event pages"
        statusId="events-count"
        status={page ? `${page.total === 0 ? 0 : page.offset + 1}–${Math.min(page.offset + page.limit, page.total)} of ${page.total} events` : 'Loading…'}
        offset={offset}
        limit={limit}
        total={page?.total ?? null}
        onOffset={setOffset}
      >
        <label>
          Per page
          <select value={String(limit)} onChange={(e) => setLimit(Number((e.currentTarget as HTMLSelectElement).value))}>
            {[25, 50, 100, 200].map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
      </Pager>
      {silencing && (
        <SilenceDialog
          row={silencing}
          onClose={(problem) => (setSilencing(null), problem !== undefined && done(`Silence ${silencing.client}/${silencing.check}`)(problem))}
        />
      )}
    </section>
  );
}

function SortHeader({ id, title, sort, onSort }: { id: string; title: string; sort: { key: string; order: string }; onSort: (key: string) => void }) {
  const active = sort.key === id;
  return (
    <th scope="col" aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" class="sort" onClick={() => onSort(id)}>
        {title}
        <span aria-hidden="true">{active ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

const EXPIRIES = [
  ['900', '15 minutes'],
  ['3600', '1 hour'],
  ['14400', '4 hours'],
  ['86400', '1 day'],
  ['', 'Until cleared'],
] as const;

/** Silence one event (its client's own subscription and the check), or the check everywhere. */
function SilenceDialog({ row, onClose }: { row: EventRow; onClose: (problem?: string | null) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const expire = String(form.get('expire'));
    const everywhere = form.get('scope') === 'check';
    const body = {
      ...(everywhere ? {} : { subscription: `client:${row.client}` }),
      check: row.check,
      reason: String(form.get('reason') || '') || undefined,
      creator: 'dashboard',
      expire_on_resolve: form.get('expire_on_resolve') === 'on',
      ...(expire ? { expire: Number(expire) } : {}),
    };
    onClose(await act('POST', legacy('/silenced'), body));
  };
  return (
    <dialog ref={dialog} aria-labelledby="silence-title" onCancel={() => onClose()}>
      <form onSubmit={submit}>
        <h2 id="silence-title">
          Silence {row.client}/{row.check}
        </h2>
        <fieldset>
          <legend>What</legend>
          <label class="inline">
            <input type="radio" name="scope" value="client" checked /> This check on {row.client}
          </label>
          <label class="inline">
            <input type="radio" name="scope" value="check" /> This check on every client
          </label>
        </fieldset>
        <label>
          Expires after
          <select name="expire">
            {EXPIRIES.map(([value, title]) => (
              <option key={value} value={value} selected={value === '3600'}>
                {title}
              </option>
            ))}
          </select>
        </label>
        <label class="inline">
          <input type="checkbox" name="expire_on_resolve" /> Also end when the event resolves
        </label>
        <label>
          Reason
          <input name="reason" required placeholder="why, for the next person on call" />
        </label>
        <div class="buttons">
          <button type="submit">Silence</button>
          <button type="button" class="quiet" onClick={() => onClose()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
