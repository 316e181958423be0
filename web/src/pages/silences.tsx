import { useState } from 'preact/hooks';
import { act, getJson, legacy, segment } from '../api';
import { DataTable } from '../components/data-table';
import { Section } from '../components/section';
import { Json, Notice, useLoad } from '../ui';
import type { PageProps } from './props';

interface Silence {
  id: string;
  subscription: string | null;
  check: string | null;
  reason: string | null;
  creator: string | null;
  expire: number;
  expire_on_resolve: boolean;
  begin: number | null;
}
interface Stash {
  path: string;
  content: unknown;
  expire: number;
}
const expiry = (seconds: number) =>
  seconds < 0 ? 'never' : seconds < 3600 ? `in ${Math.ceil(seconds / 60)}m` : `in ${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;

export function SilencesPage({ generation }: PageProps) {
  const [message, setMessage] = useState<string | null>(null);
  const silences = useLoad(() => getJson<Silence[]>(legacy('/silenced')), [generation]);
  const stashes = useLoad(() => getJson<Stash[]>(legacy('/stashes')), [generation]);
  const aggregates = useLoad(() => getJson<{ name: string }[]>(legacy('/aggregates')), [generation]);
  const done = (what: string, reload: () => void) => (problem: string | null) => {
    setMessage(problem ? `${what} failed: ${problem}` : `${what}: done.`);
    reload();
  };
  const add = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const pick = (key: string) => String(form.get(key) ?? '').trim();
    const expire = pick('expire');
    const body = {
      ...(pick('subscription') ? { subscription: pick('subscription') } : {}),
      ...(pick('check') ? { check: pick('check') } : {}),
      reason: pick('reason') || undefined,
      creator: 'dashboard',
      ...(expire ? { expire: Number(expire) } : {}),
    };
    done('Silence', silences.reload)(await act('POST', legacy('/silenced'), body));
  };
  return (
    <>
      {message && <Notice kind="info">{message}</Notice>}
      <Section id="silences-title" title="Silences" error={silences.error}>
        <DataTable
          columns={['Id', 'Reason', 'Creator', 'Expires', 'On resolve', 'Actions']}
          rows={silences.value}
          row={(s) => (
            <tr key={s.id} data-silence={s.id}>
              <td>
                <code>{s.id}</code>
              </td>
              <td>{s.reason ?? ''}</td>
              <td>{s.creator ?? ''}</td>
              <td>{expiry(s.expire)}</td>
              <td>{s.expire_on_resolve ? 'yes' : 'no'}</td>
              <td>
                <button
                  type="button"
                  onClick={() => void act('POST', legacy('/silenced/clear'), { id: s.id }).then(done(`Clear ${s.id}`, silences.reload))}
                  aria-label={`Clear silence ${s.id}`}
                >
                  Clear
                </button>
              </td>
            </tr>
          )}
        />
        <form class="filters" onSubmit={add} aria-label="New silence">
          <label>
            Subscription
            <input name="subscription" placeholder="e.g. webservers or client:web-1" />
          </label>
          <label>
            Check
            <input name="check" />
          </label>
          <label>
            Expire (seconds)
            <input name="expire" inputMode="numeric" pattern="[0-9]*" />
          </label>
          <label>
            Reason
            <input name="reason" />
          </label>
          <button type="submit">Add silence</button>
        </form>
      </Section>
      <Section id="stashes-title" title="Stashes" error={stashes.error}>
        <DataTable
          columns={['Path', 'Content', 'Expires', 'Actions']}
          rows={stashes.value}
          empty="No stashes."
          row={(s) => (
            <tr key={s.path}>
              <td>
                <code>{s.path}</code>
              </td>
              <td>
                <Json value={s.content} />
              </td>
              <td>{expiry(s.expire)}</td>
              <td>
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    void act('DELETE', legacy(`/stashes/${s.path.split('/').map(segment).join('/')}`)).then(done(`Delete stash ${s.path}`, stashes.reload))
                  }
                  aria-label={`Delete stash ${s.path}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          )}
        />
      </Section>
      <Section id="aggregates-title" title="Aggregates" error={aggregates.error}>
        {aggregates.value?.length === 0 && <p>No aggregates.</p>}
        {aggregates.value?.map((a) => (
          <Aggregate key={a.name} name={a.name} generation={generation} />
        ))}
      </Section>
    </>
  );
}

const SEVERITIES = ['critical', 'warning', 'unknown', 'ok'] as const;

function Aggregate({ name, generation }: { name: string; generation: number }) {
  const [open, setOpen] = useState(false);
  const summary = useLoad(() => getJson<Record<string, number>>(legacy(`/aggregates/${segment(name)}`)), [name, generation]);
  const members = useLoad(
    () =>
      open
        ? Promise.all(SEVERITIES.map((s) => getJson<unknown[]>(legacy(`/aggregates/${segment(name)}/results/${s}`)).then((list) => [s, list] as const)))
        : Promise.resolve(null),
    [name, open, generation],
  );
  return (
    <details class="aggregate" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        <strong>{name}</strong> {summary.value && SEVERITIES.map((s) => <span key={s} class={`tag sev-${s}`}>{`${s} ${summary.value![s] ?? 0}`}</span>)}
        {summary.value && <span class="tag">{`total ${summary.value.total ?? 0}`}</span>}
      </summary>
      {members.value?.map(([severity, list]) =>
        list.length > 0 ? (
          <div key={severity}>
            <h3>{severity}</h3>
            <Json value={list} />
          </div>
        ) : null,
      )}
    </details>
  );
}
