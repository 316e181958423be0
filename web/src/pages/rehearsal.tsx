import { DASH, getJson } from '../api';
import { DataTable } from '../components/data-table';
import { Section } from '../components/section';
import { useLoad } from '../ui';

interface Divergence {
  at: number;
  client: string;
  status: number;
  action: string;
  kinds: string[];
  handlers: { handler: string; legacy: string; v2: string }[];
  tokens?: { token: string; label: string | null }[];
  why: string[];
}

interface RehearsedCheck {
  check: string;
  seen: number;
  agreed: number;
  diverged: number;
  first: Divergence[];
}

interface Rehearsal {
  configuration: string | null;
  seen: number;
  agreed: number;
  diverged: number;
  skipped: number;
  checks: RehearsedCheck[];
}

/** The migration rehearsal: per check, live events seen, agreeing and diverging, and the first divergences with why. */
export function RehearsalSection({ generation }: { generation: number }) {
  const { value, error } = useLoad(() => getJson<Rehearsal>(`${DASH}/rehearsal`), [generation]);
  const diverging = value?.checks.filter((c) => c.diverged > 0) ?? [];
  return (
    <Section id="rehearsal-title" title="Rehearsal on live events" error={error}>
      <p>
        What Sensu Go would have done with each legacy event the daemon handled, under the compiled resources. The same from a shell:{' '}
        <code>checkbridge rehearse</code>
      </p>
      {value && (
        <p role="status" data-testid="rehearsal-summary">
          {value.seen} events seen: {value.agreed} agreeing, {value.diverged} diverging
          {value.skipped > 0 ? `; ${value.skipped} not rehearsed (the sandbox busy)` : ''}.
        </p>
      )}
      <DataTable
        columns={['Check', 'Seen', 'Agreeing', 'Diverging']}
        rows={value?.checks}
        empty="No legacy event rehearsed yet."
        row={(c) => (
          <tr key={c.check} data-rehearsed={c.check} data-diverged={String(c.diverged)}>
            <td>{c.check}</td>
            <td>{c.seen}</td>
            <td>{c.agreed}</td>
            <td>{c.diverged}</td>
          </tr>
        )}
      />
      {diverging.map((c) => (
        <div key={c.check} data-divergences={c.check}>
          <h3>
            {c.check}: first {c.first.length} of {c.diverged} divergences
          </h3>
          <ul>
            {c.first.map((d, i) => (
              <li key={i}>
                {new Date(d.at * 1000).toISOString()}, client {d.client}, status {d.status}: {d.kinds.join(', ')}
                <ul>
                  {d.handlers.map((h) => (
                    <li key={h.handler}>
                      handler {h.handler}: legacy {h.legacy}; Sensu Go {h.v2}
                    </li>
                  ))}
                  {(d.tokens ?? []).map((t) => (
                    <li key={t.token}>
                      token <code>{t.token}</code> renders differently{t.label ? ` (label ${t.label})` : ''}
                    </li>
                  ))}
                  {d.why.map((w) => (
                    <li key={w} class="why">
                      why: {w}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </Section>
  );
}
