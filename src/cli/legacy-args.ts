// Legacy daemon flags keep working: `-d conf.d --validate_config` becomes `validate -d conf.d`.
const LEGACY_COMMANDS: Record<string, string> = {
  '--validate_config': 'validate',
  '--print_config': 'print-config',
  '-P': 'print-config',
};

export function translateLegacyArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let command: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (LEGACY_COMMANDS[arg]) command = LEGACY_COMMANDS[arg];
    else if (arg === '-L') out.push('--log-level', args[++i] ?? '');
    else out.push(arg);
  }
  return command ? [command, ...out] : out;
}
