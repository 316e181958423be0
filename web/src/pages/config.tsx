import { useState } from 'preact/hooks';
import { DASH, getJson } from '../api';
import { DataTable } from '../components/data-table';
import { Section } from '../components/section';
import { Json, Notice, useEvery, useLoad } from '../ui';
import { loadClientNames } from './clients';
import type { PageProps } from './props';

interface Diagnostics {
  valid: boolean;
  files: string[];
  diagnostics: { file: string | null; line: number | null; column: number | null; path: string; message: string }[];
  warnings: string[];
}

export function ConfigPage(_props: PageProps) {
  // Read afresh every two seconds: a file saved in conf.d shows here without a reload.
  const { value, error, reload } = useLoad(() => getJson<Diagnostics>(`${DASH}/config/diagnostics`), []);
  useEvery(reload, 2000);
  return (
    <>
      <Section id="diagnostics-title" title="Validation" error={error}>
        {value && (
          <p role="status" class={value.valid ? 'notice ok' : 'notice error'} data-testid="config-state">
            {value.valid
              ? `The configuration is valid (${value.files.length} files).`
              : `The configuration is invalid: ${value.diagnostics.length} ${value.diagnostics.length === 1 ? 'problem' : 'problems'}. The daemon keeps running the last valid configuration.`}
          </p>
        )}
        {value && value.diagnostics.length > 0 && (
          <DataTable
            class="diagnostics"
            columns={['Where', 'JSON path', 'Problem']}
            rows={value.diagnostics}
            row={(d, i) => (
              <tr key={i} class="diagnostic">
                <td>
                  <code>{`${d.file ?? '<settings>'}:${d.line ?? 0}:${d.column ?? 0}`}</code>
                </td>
                <td>
                  <code>{d.path || '/'}</code>
                </td>
                <td>{d.message}</td>
              </tr>
            )}
          />
        )}
        {value?.warnings.map((w) => (
          <Notice key={w} kind="info">{`warning: ${w}`}</Notice>
        ))}
      </Section>
      <Render />
    </>
  );
}

/** A check after token substitution with a chosen client, as `checkbridge render` prints it. */
function Render() {
  const checks = useLoad(() => getJson<{ name: string }[]>(`${DASH}/checks`).then((list) => list.map((c) => c.name)), []);
  const clients = useLoad(loadClientNames, []);
  const [check, setCheck] = useState('');
  const [client, setClient] = useState('');
  const rendered = useLoad(
    () =>
      check
        ? getJson<{ client: string; check: Record<string, unknown> }>(`${DASH}/config/render?${new URLSearchParams({ check, client })}`)
        : Promise.resolve(null),
    [check, client],
  );
  return (
    <Section id="render-title" title="Rendered check">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Check
          <select value={check} onChange={(e) => setCheck((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">Choose…</option>
            {checks.value?.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <label>
          Client
          <select value={client} onChange={(e) => setClient((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">This daemon's client</option>
            {clients.value?.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
      </form>
      {rendered.error && <Notice>{rendered.error}</Notice>}
      {rendered.value && <Json value={rendered.value.check} />}
    </Section>
  );
}
