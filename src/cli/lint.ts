import { locateSetting, type Diagnostic, type LoadedFile } from '../config/index.js';
import { lintConfiguration } from '../legacy/index.js';

/** The migration lint's findings, located in the files that set them (warnings: CB_CONFIG_LINT). */
export function lintDiagnostics(merged: Record<string, unknown>, files: readonly LoadedFile[]): Diagnostic[] {
  return lintConfiguration(merged).map((finding) => locateSetting(files, finding.segments, finding.message, 'CB_CONFIG_LINT'));
}
