import { useState } from 'preact/hooks';
import { DASH, getJson, request } from '../api';
import { Notice, useLoad } from '../ui';
import type { PageProps } from './props';

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
      <section aria-labelledby="compile-title">
        <h2 id="compile-title">Compiled resources</h2>
        {error && <Notice>{error}</Notice>}
        {problem && <Notice>{problem}</Notice>}
        <p>
          What <code>checkbridge compile</code> makes of the running configuration. The same from a shell: <code>checkbridge compile conf.d --format yaml --out resources/</code>
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
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Name</th>
                <th scope="col">Namespace</th>
              </tr>
            </thead>
            <tbody>
              {value?.resources.map((r) => (
                <tr key={`${r.type}/${r.name}`}>
                  <td>{r.type}</td>
                  <td>{r.name}</td>
                  <td>{r.namespace ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="warnings-title">
        <h2 id="warnings-title">Warnings</h2>
        {value?.warnings.length === 0 && <p>Everything maps to v2.</p>}
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Where</th>
                <th scope="col">JSON path</th>
                <th scope="col">Warning</th>
              </tr>
            </thead>
            <tbody>
              {value?.warnings.map((w, i) => (
                <tr key={i}>
                  <td>
                    <code>{`${w.file ?? '<settings>'}:${w.line ?? 0}`}</code>
                  </td>
                  <td>
                    <code>{w.path}</code>
                  </td>
                  <td>{w.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {value && Object.keys(value.labels).length > 0 && (
          <ul>
            {Object.entries(value.labels).map(([check, labels]) => (
              <li key={check}>
                check {check} reads entity labels {labels.join(', ')}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
