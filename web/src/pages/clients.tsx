import { useState } from 'preact/hooks';
import { act, getJson, legacy, request, segment } from '../api';
import { DataTable } from '../components/data-table';
import { Pager } from '../components/pager';
import { age } from '../format';
import { Json, Notice, useEvery, useLoad } from '../ui';
import type { PageProps } from './props';

type Client = Record<string, unknown> & { name: string; address?: string; subscriptions?: string[]; version?: string; timestamp?: number };
const SHOWN = new Set(['name', 'address', 'subscriptions', 'version', 'timestamp', 'entity_class', 'connected']);
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
      <DataTable
        columns={['Name', 'Class', 'Address', 'Keepalive', 'Version', 'Subscriptions', 'Attributes', 'Actions']}
        rows={value?.clients}
        row={(client) => (
          <tr key={client.name} data-client={client.name}>
            <td>{client.name}</td>
            <td>{client.entity_class === 'agent' ? `Sensu Go agent, ${client.connected ? 'connected' : 'not connected'}` : 'legacy client'}</td>
            <td>{String(client.address ?? '')}</td>
            <td>{age(client.timestamp)}</td>
            <td>{String(client.version ?? '')}</td>
            <td>
              {(client.subscriptions ?? []).map((s) => (
                <span key={s} class="tag">
                  {s}
                </span>
              ))}
            </td>
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
        )}
      />
      <Pager
        label="Client pages"
        status={value ? `${value.total} clients` : 'Loading…'}
        offset={offset}
        limit={PAGE}
        total={value?.total ?? null}
        onOffset={setOffset}
      />
    </section>
  );
}

export const loadClientNames = () => getJson<Client[]>(legacy('/clients')).then((list) => list.map((c) => c.name));
