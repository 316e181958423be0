import { formatDiagnostic, type Diagnostic } from '../config/index.js';
import type { CompileResult, SensuGoVersion } from './model.js';

export type ReportFormat = 'markdown' | 'json';

interface Definition {
  readonly definition: string;
  readonly became: string[];
  readonly warnings: string[];
}

// A warning's pointer `/checks/disk/interval` belongs to the definition `checks/disk`; `/client/x` to `client`.
function ownerOf(d: Diagnostic): string {
  const [kind, name] = d.path
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return kind === 'client' || name === undefined ? String(kind) : `${kind}/${name}`;
}

function definitions(result: CompileResult): Definition[] {
  const byOwner = new Map<string, Definition>();
  const entry = (owner: string) => {
    if (!byOwner.has(owner)) byOwner.set(owner, { definition: owner, became: [...(result.became.get(owner) ?? [])], warnings: [] });
    return byOwner.get(owner)!;
  };
  for (const owner of result.became.keys()) entry(owner);
  for (const warning of result.warnings) entry(ownerOf(warning)).warnings.push(formatDiagnostic(warning));
  return [...byOwner.values()].sort((a, b) => (a.definition < b.definition ? -1 : a.definition > b.definition ? 1 : 0));
}

const targetName = (t: SensuGoVersion) => (t.minor === Infinity ? `${t.major}.x` : `${t.major}.${t.minor}`);

/** The migration report: per legacy definition, what it became and each warning; then what behaves differently. */
export function formatReport(result: CompileResult, target: SensuGoVersion, format: ReportFormat): string {
  const defs = definitions(result);
  const emitted = result.resources.length;
  if (format === 'json') {
    return JSON.stringify({ target: targetName(target), emitted, refused: result.refused, definitions: defs, differences: result.differences }, null, 2) + '\n';
  }
  const lines = [
    `# Migration report (Sensu Go ${targetName(target)})`,
    '',
    `${emitted} resources emitted, ${result.warnings.length} warnings, ${result.refused.length} refused.`,
    '',
  ];
  if (result.refused.length) {
    lines.push('## Refused (Sensu Go would reject them: not written)', '');
    for (const r of result.refused) lines.push(`- \`${r.resource}\`: ${r.reason}`);
    lines.push('');
  }
  lines.push('## Definitions', '');
  for (const d of defs) {
    lines.push(`### ${d.definition}`, '', `Became: ${d.became.length ? d.became.map((b) => `\`${b}\``).join(', ') : 'nothing'}`, '');
    for (const w of d.warnings) lines.push(`- ${w}`);
    if (d.warnings.length) lines.push('');
  }
  lines.push('## What behaves differently', '');
  for (const difference of result.differences) lines.push(`- ${difference}`);
  return lines.join('\n') + '\n';
}
