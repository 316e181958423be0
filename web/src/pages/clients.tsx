import { useState } from 'preact/hooks';
import { act, getJson, legacy, request, segment } from '../api';
import { age } from '../format';
import { Json, Notice, useEvery, useLoad } from '../ui';
import type { PageProps } from './props';

type Client = Record<string, unknown> & { name: string; address?: string; subscriptions?: string[]; version?: string; timestamp?: number };
const SHOWN = new Set(['name', 'address', 'subscriptions', 'version', 'timestamp']);
const PAGE = 100;

export function ClientsPage({ generation }: PageProps) {
  const [offset, setOffset] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const [, setNow] = useState(0);
  useEvery(() => setNow(Date.now()), 5000);
  const { value, error, reload } = useLoad(async () => {
    const response = await request(legacy(`/clients?limit=${PAGE}&offset=${offset}`));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const total = (JSON.parse(response.headers.get('x-pagination') ?? '{}') as { total?: number }).total ?? 0;
    return { total, clients: (await response.json()) as Client[] };
  }, [offset, generation]);
  const deregister = async (name: string) => {
    if (!confirm(`Deregister ${name}? Its events are resolved and its results removed.`)) return;
    const problem = await act('DELETE', legacy(`/clients/${segment(name)}`));
    setMessage(problem ? `Deregister ${name} failed: ${problem}` : `Deregistering ${name}.`);
    setTimeout(reload, 500);
  };
  return (
    <section>
      {error && <Notice>{error}</Notice>}
      {message && <Notice kind="info">{message}</Notice>}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Address</th>
              <th scope="col">Keepalive</th>
              <th scope="col">Version</th>
              <th scope="col">Subscriptions</th>
              <th scope="col">Attributes</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {value?.clients.map((client) => (
              <tr key={client.name} data-client={client.name}>
                <td>{client.name}</td>
                <td>{String(client.address ?? '')}</td>
                <td>{age(client.timestamp)}</td>
                <td>{String(client.version ?? '')}</td>
                <td>{(client.subscriptions ?? []).map((s) => <span key={s} class="tag">{s}</span>)}</td>
                <td>
                  <details>
                    <summary>{Object.keys(client).filter((k) => !SHOWN.has(k)).length} more</summary>
                    <Json value={Object.fromEntries(Object.entries(client).filter(([k]) => !SHOWN.has(k)))} />
                  </details>
                </td>
                <td>
                  <button type="button" class="danger" onClick={() => void deregister(client.name)} aria-label={`Deregister ${client.name}`}>
                    Deregister
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav class="pager" aria-label="Client pages">
        <span role="status">{value ? `${value.total} clients` : 'Loading…'}</span>
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Previous
        </button>
        <button type="button" disabled={!value || offset + PAGE >= value.total} onClick={() => setOffset(offset + PAGE)}>
          Next
        </button>
      </nav>
    </section>
  );
}

export const loadClientNames = () => getJson<Client[]>(legacy('/clients')).then((list) => list.map((c) => c.name));
