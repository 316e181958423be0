import { useState } from 'preact/hooks';
import { act, DASH, getJson, legacy, segment } from '../api';
import { DataTable } from '../components/data-table';
import { Section } from '../components/section';
import { age } from '../format';
import { History, Notice, StatusBadge, useLoad } from '../ui';
import type { PageProps } from './props';

interface CheckSummary {
  name: string;
  command: string | null;
  standalone: boolean;
  publish: boolean;
  interval: number | null;
  cron: string | null;
  subscribers: string[];
  subdue: unknown;
  handlers: string[];
  file: string | null;
  line: number | null;
}
interface Timeline {
  from: string;
  to: string;
  zone: string;
  timing: { kind: string; interval_s?: number | null; cron?: string };
  splay: { interval_s: number; offset_s: number; key: string } | null;
  executions: { at: string; subdued: boolean }[];
  subdue_bands: { start: string; end: string }[];
}
interface Result {
  client: string;
  status: number;
  output: string;
  executed: number | null;
  history: number[];
}

interface V2CheckSummary {
  name: string;
  namespace: string;
  command: string | null;
  publish: boolean;
  interval: number | null;
  cron: string | null;
  subscriptions: string[];
  round_robin: boolean;
  proxy: boolean;
  handlers: string[];
  next_execution: number | null;
}

const schedule = (c: CheckSummary) => (c.cron ? `cron ${c.cron}` : c.interval ? `every ${c.interval}s` : 'not scheduled');

export function ChecksPage({ rest, generation }: PageProps) {
  const { value: checks, error } = useLoad(() => getJson<CheckSummary[]>(`${DASH}/checks`), [generation]);
  const chosen = checks?.find((c) => c.name === rest);
  return (
    <>
      <div class="split">
        <Section id="check-list" title="Definitions" error={error}>
          <ul class="check-list">
            {checks?.map((c) => (
              <li key={c.name}>
                <a href={`#/checks/${encodeURIComponent(c.name)}`} aria-current={c.name === rest ? 'true' : undefined}>
                  <strong>{c.name}</strong>
                </a>
                <span class="meta">
                  {schedule(c)}
                  {c.standalone ? ' · standalone' : c.subscribers.length ? ` · ${c.subscribers.join(', ')}` : ''}
                  {c.subdue ? ' · subdued windows' : ''}
                </span>
                <code class="source">{c.file ? `${c.file}:${c.line ?? 0}` : 'defaults'}</code>
              </li>
            ))}
          </ul>
        </Section>
        {chosen ? <CheckDetail check={chosen} generation={generation} /> : <p>Choose a check to see its timeline and results.</p>}
      </div>
      <V2Checks generation={generation} />
    </>
  );
}

const v2Schedule = (c: V2CheckSummary) => (!c.publish ? 'ad hoc only' : c.cron ? `cron ${c.cron}` : c.interval ? `every ${c.interval}s` : 'not scheduled');

/** The v2 CheckConfigs of a namespace (created through the v2 API or sensuctl), with their next execution. */
function V2Checks({ generation }: { generation: number }) {
  const [namespace, setNamespace] = useState('default');
  const [message, setMessage] = useState<string | null>(null);
  const { value: checks, error, reload } = useLoad(() => getJson<V2CheckSummary[]>(`${DASH}/namespaces/${segment(namespace)}/checks`), [namespace, generation]);
  const runNow = async (name: string) => {
    setMessage((await act('POST', `${DASH}/namespaces/${segment(namespace)}/checks/${segment(name)}/execute`)) ?? `Requested ${name}.`);
    reload();
  };
  return (
    <Section id="v2-checks" title="v2 CheckConfigs" error={error}>
      <label>
        Namespace <input value={namespace} onChange={(e) => setNamespace((e.currentTarget as HTMLInputElement).value || 'default')} />
      </label>
      {message && <Notice kind="info">{message}</Notice>}
      <DataTable
        columns={['Check', 'Schedule', 'Subscriptions', 'Next execution', '']}
        rows={checks}
        empty="No CheckConfigs in this namespace."
        row={(c) => (
          <tr key={c.name} data-check={c.name}>
            <td>
              <strong>{c.name}</strong>
              {c.command && (
                <div>
                  <code class="source">{c.command}</code>
                </div>
              )}
            </td>
            <td>
              {v2Schedule(c)}
              {c.round_robin ? ' · round robin' : ''}
              {c.proxy ? ' · proxy requests' : ''}
            </td>
            <td>{c.subscriptions.join(', ')}</td>
            <td>{c.next_execution ? new Date(c.next_execution).toLocaleString() : '—'}</td>
            <td>
              <button type="button" onClick={() => void runNow(c.name)}>
                Run now
              </button>
            </td>
          </tr>
        )}
      />
    </Section>
  );
}

function CheckDetail({ check, generation }: { check: CheckSummary; generation: number }) {
  const [hours, setHours] = useState(24);
  const [message, setMessage] = useState<string | null>(null);
  const { value: timeline, error } = useLoad(() => getJson<Timeline>(`${DASH}/checks/${segment(check.name)}/timeline?hours=${hours}`), [check.name, hours]);
  const { value: results } = useLoad(() => getJson<Result[]>(`${DASH}/checks/${segment(check.name)}/results`), [check.name, generation]);
  const runNow = async () =>
    setMessage((await act('POST', legacy('/request'), { check: check.name, creator: 'dashboard', reason: 'requested from the dashboard' })) ?? 'Requested.');
  return (
    <Section id="check-title" title={check.name} class="detail">
      <p>
        <code>{check.file ? `${check.file}:${check.line ?? 0}` : 'defaults'}</code> · {schedule(check)}
        {check.handlers.length > 0 && ` · handlers ${check.handlers.join(', ')}`}
      </p>
      {check.command && <pre class="command">{check.command}</pre>}
      <div class="buttons">
        <label>
          Show the next
          <select value={String(hours)} onChange={(e) => setHours(Number((e.currentTarget as HTMLSelectElement).value))}>
            {[6, 24, 48].map((h) => (
              <option key={h} value={String(h)}>
                {h} hours
              </option>
            ))}
          </select>
        </label>
        {!check.standalone && (
          <button type="button" onClick={() => void runNow()}>
            Run now
          </button>
        )}
      </div>
      {message && <Notice kind="info">{message}</Notice>}
      {error && <Notice>{error}</Notice>}
      {timeline && <TimelineChart timeline={timeline} />}
      <h3>Last result per client</h3>
      <DataTable
        columns={['Client', 'Status', 'Executed', 'History', 'Output']}
        rows={results}
        empty="No results yet."
        row={(r) => (
          <tr key={r.client}>
            <td>{r.client}</td>
            <td>
              <StatusBadge status={r.status} />
            </td>
            <td>{age(r.executed)}</td>
            <td>
              <History history={r.history} />
            </td>
            <td class="output">{r.output.split('\n')[0]}</td>
          </tr>
        )}
      />
    </Section>
  );
}

const W = 1000;
const H = 90;
const hhmm = (ms: number, zone: string) =>
  new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }).format(ms);

/** Executions as ticks over the window, subdue windows as shaded bands, hours in the daemon's zone. */
function TimelineChart({ timeline }: { timeline: Timeline }) {
  const from = Date.parse(timeline.from);
  const to = Date.parse(timeline.to);
  const x = (ms: number) => ((ms - from) / (to - from)) * W;
  const hours: number[] = [];
  for (let h = Math.ceil(from / 3600_000) * 3600_000; h < to; h += 3600_000) hours.push(h);
  const labelEvery = Math.ceil(hours.length / 12);
  const shown =
    timeline.executions.length > 2000 ? timeline.executions.filter((_, i) => i % Math.ceil(timeline.executions.length / 2000) === 0) : timeline.executions;
  const next = timeline.executions.filter((e) => !e.subdued).slice(0, 5);
  return (
    <figure class="timeline">
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-labelledby="timeline-caption">
        {timeline.subdue_bands.map((band) => (
          <rect
            key={band.start}
            class="subdue-band"
            data-start={band.start}
            data-end={band.end}
            x={x(Date.parse(band.start))}
            y={0}
            width={Math.max(1, x(Date.parse(band.end)) - x(Date.parse(band.start)))}
            height={H - 20}
          >
            <title>
              subdued {hhmm(Date.parse(band.start), timeline.zone)}–{hhmm(Date.parse(band.end), timeline.zone)}
            </title>
          </rect>
        ))}
        {hours.map((h, i) => (
          <g key={h}>
            <line class="hour" x1={x(h)} x2={x(h)} y1={0} y2={H - 20} />
            {i % labelEvery === 0 && x(h) > 20 && x(h) < W - 20 && (
              <text class="hour-label" x={x(h)} y={H - 6} text-anchor="middle">
                {hhmm(h, timeline.zone)}
              </text>
            )}
          </g>
        ))}
        {shown.map((e) => (
          <line key={e.at} class={e.subdued ? 'run subdued' : 'run'} x1={x(Date.parse(e.at))} x2={x(Date.parse(e.at))} y1={12} y2={H - 28} />
        ))}
      </svg>
      <figcaption id="timeline-caption">
        {timeline.executions.length} executions from {new Date(from).toLocaleString()} to {new Date(to).toLocaleString()} ({timeline.zone}).{' '}
        {timeline.splay
          ? `Splay: each run falls ${timeline.splay.offset_s}s into its ${timeline.splay.interval_s}s interval.`
          : timeline.timing.kind === 'cron'
            ? `Cron ${timeline.timing.cron}.`
            : ''}{' '}
        {timeline.subdue_bands.length > 0
          ? `Subdued: ${timeline.subdue_bands.map((b) => `${hhmm(Date.parse(b.start), timeline.zone)}–${hhmm(Date.parse(b.end), timeline.zone)}`).join(', ')}.`
          : 'Not subdued in this window.'}
      </figcaption>
      {next.length > 0 && <p class="next-runs">Next: {next.map((e) => new Date(e.at).toLocaleTimeString()).join(', ')}</p>}
    </figure>
  );
}
