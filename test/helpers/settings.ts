import { buildSettings } from '../../src/config/build.js';
import type { Settings } from '../../src/config/settings.js';

/** Settings from an in-memory configuration, through the real pipeline; throws on diagnostics. */
export function settingsOf(config: Record<string, unknown>): Settings {
  const outcome = buildSettings([{ path: 'test.json', text: JSON.stringify(config), data: config, diagnostics: [] }], {});
  if (!outcome.settings) throw new Error(outcome.diagnostics.map((d) => `${d.path}: ${d.message}`).join('\n'));
  return outcome.settings;
}
