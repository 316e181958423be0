import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { DASH, getJson, legacy } from '../api';
import { DataTable } from '../components/data-table';
import { Section } from '../components/section';
import { Notice, useEvery, useLoad } from '../ui';
import type { PageProps } from './props';

interface History {
  configured: boolean;
  status: string | null;
  stats: { depth: number; oldest_age_s: number; delivered: number; dead_lettered: number } | null;
  samples: { at: number; depth: number; oldest_age_s: number }[];
}
interface DeadLetter {
  seq: number;
  namespace: string;
  entity: string;
  check: string;
  status: number;
  message: string;
  failed_at: number;
}

export function BridgePage({ generation }: PageProps) {
  const history = useLoad(() => getJson<History>(`${DASH}/bridge/history`), [generation]);
  useEvery(history.reload, 15_000);
  const configured = history.value?.configured === true;
  const dead = useLoad(() => (configured ? getJson<DeadLetter[]>(legacy('/bridge/dead_letters')) : Promise.resolve([])), [configured, generation]);
  if (history.error) return <Notice>{history.error}</Notice>;
  if (!history.value) return <p>Loading…</p>;
  if (!configured) return <Notice kind="info">No bridge is configured: set bridge.url (or --bridge-url) to send events to a v2 backend.</Notice>;
  const stats = history.value.stats!;
  return (
    <>
      <dl class="figures">
        <div>
          <dt>Status</dt>
          <dd>{history.value.status}</dd>
        </div>
        <div>
          <dt>Outbox depth</dt>
          <dd>{stats.depth}</dd>
        </div>
        <div>
          <dt>Oldest waiting</dt>
          <dd>{stats.oldest_age_s}s</dd>
        </div>
        <div>
          <dt>Delivered</dt>
          <dd>{stats.delivered}</dd>
        </div>
        <div>
          <dt>Dead letters</dt>
          <dd>{stats.dead_lettered}</dd>
        </div>
      </dl>
      <Section id="chart-title" title="Outbox over the last hour">
        <Chart samples={history.value.samples} />
      </Section>
      <Section id="dead-title" title="Dead letters">
        {dead.value?.length === 0 && <p>None.</p>}
        <DataTable
          columns={['Failed', 'Event', 'HTTP status', 'Reason']}
          rows={dead.value}
          row={(d) => (
            <tr key={d.seq}>
              <td>{new Date(d.failed_at).toLocaleString()}</td>
              <td>{`${d.namespace}/${d.entity}/${d.check}`}</td>
              <td>{d.status}</td>
              <td>{d.message}</td>
            </tr>
          )}
        />
      </Section>
    </>
  );
}

function Chart({ samples }: { samples: History['samples'] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const width = Math.max(280, Math.min(900, box.current.clientWidth));
    const end = samples.at(-1)?.at ?? Date.now() / 1000;
    const plot = new uPlot(
      {
        width,
        height: 220,
        // Always the whole last hour, however few samples a freshly started daemon has.
        scales: {
          x: { time: true, range: () => [end - 3600, end] },
          y: { range: (_u, _min, max) => [0, Math.max(5, max)] },
          s: { range: (_u, _min, max) => [0, Math.max(5, max)] },
        },
        series: [
          {},
          { label: 'depth', stroke: '#1f5fbf', width: 2, points: { show: true } },
          { label: 'oldest age (s)', stroke: '#b3261e', width: 2, scale: 's', points: { show: true } },
        ],
        axes: [{}, { label: 'events' }, { side: 1, scale: 's', label: 'seconds', grid: { show: false } }],
      },
      [samples.map((s) => s.at), samples.map((s) => s.depth), samples.map((s) => s.oldest_age_s)],
      box.current,
    );
    return () => plot.destroy();
  }, [samples]);
  return (
    <div
      ref={box}
      class="chart"
      role="img"
      aria-label={`outbox depth over the last hour, latest ${samples.at(-1)?.depth ?? 0} events waiting, oldest ${samples.at(-1)?.oldest_age_s ?? 0}s`}
    />
  );
}
