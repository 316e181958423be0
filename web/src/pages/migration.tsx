import { useState } from 'preact/hooks';
import { DASH, getJson, request } from '../api';
import { DataTable } from '../components/data-table';
import { Section } from '../components/section';
import { Notice, useLoad } from '../ui';
import type { PageProps } from './props';
import { RehearsalSection } from './rehearsal';

interface Report {
  resources: { type: string; name: string; namespace: string | null }[];
  warnings: { file: string | null; line: number | null; column: number | null; path: string; message: string }[];
  labels: Record<string, string[]>;
}

export function MigrationPage({ generation }: PageProps) {
  const { value, error } = useLoad(() => getJson<Report>(`${DASH}/migration`), [generation]);
  const [problem, setProblem] = useState<string | null>(null);
  const download = async () => {
    const response = await request(`${DASH}/migration.yaml`);
    if (!response.ok) return setProblem(`Download failed: HTTP ${response.status}`);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await response.blob());
    link.download = 'checkbridge-resources.yaml';
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };
  const kinds = new Map<string, number>();
  for (const r of value?.resources ?? []) kinds.set(r.type, (kinds.get(r.type) ?? 0) + 1);
  return (
    <>
      <Section id="compile-title" title="Compiled resources" error={error}>
        {problem && <Notice>{problem}</Notice>}
        <p>
          What <code>checkbridge compile</code> makes of the running configuration. The same from a shell:{' '}
          <code>checkbridge compile conf.d --format yaml --out resources/</code>
        </p>
        <div class="buttons">
          <button type="button" onClick={() => void download()}>
            Download YAML
          </button>
        </div>
        {value && (
          <p role="status" data-testid="migration-summary">
            {value.resources.length} resources ({[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}), {value.warnings.length} warnings.
          </p>
        )}
        <DataTable
          columns={['Kind', 'Name', 'Namespace']}
          rows={value?.resources}
          row={(r) => (
            <tr key={`${r.type}/${r.name}`}>
              <td>{r.type}</td>
              <td>{r.name}</td>
              <td>{r.namespace ?? '—'}</td>
            </tr>
          )}
        />
      </Section>
      <Section id="warnings-title" title="Warnings">
        {value?.warnings.length === 0 && <p>Everything maps to v2.</p>}
        <DataTable
          columns={['Where', 'JSON path', 'Warning']}
          rows={value?.warnings}
          row={(w, i) => (
            <tr key={i}>
              <td>
                <code>{`${w.file ?? '<settings>'}:${w.line ?? 0}`}</code>
              </td>
              <td>
                <code>{w.path}</code>
              </td>
              <td>{w.message}</td>
            </tr>
          )}
        />
        {value && Object.keys(value.labels).length > 0 && (
          <ul>
            {Object.entries(value.labels).map(([check, labels]) => (
              <li key={check}>
                check {check} reads entity labels {labels.join(', ')}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <RehearsalSection generation={generation} />
    </>
  );
}
