// The local entity's `system` (spec §1.9), as Sensu Go's agent reports it: platform names from os-release, Go's arch names.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface HostSystem {
  readonly hostname: string;
  readonly os: string;
  readonly platform: string;
  readonly platform_family: string;
  readonly platform_version: string;
  readonly arch: string;
}

const GO_ARCH = new Map([['x64', 'amd64'], ['ia32', '386'], ['arm', 'arm'], ['arm64', 'arm64'], ['ppc64', 'ppc64le'], ['s390x', 's390x'], ['riscv64', 'riscv64'], ['loong64', 'loong64'], ['mips', 'mips'], ['mipsel', 'mipsle']]);
const GO_OS = new Map([['win32', 'windows'], ['sunos', 'solaris']]);

/** KEY=value lines, values optionally quoted. */
function osReleaseFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) fields.set(match[1]!, match[2]!.replace(/^(["'])(.*)\1$/, '$2'));
  }
  return fields;
}

/** platform is ID (`ubuntu`); the family is the first ID_LIKE (`debian`), or ID itself when it names no parent. */
export function platformFromOsRelease(text: string): Pick<HostSystem, 'platform' | 'platform_family' | 'platform_version'> {
  const fields = osReleaseFields(text);
  const platform = (fields.get('ID') ?? '').toLowerCase();
  const family = (fields.get('ID_LIKE') ?? '').toLowerCase().split(/\s+/).find(Boolean) ?? platform;
  return { platform, platform_family: family, platform_version: fields.get('VERSION_ID') ?? '' };
}

function readOsRelease(): string {
  for (const path of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      /* try the next */
    }
  }
  return '';
}

let cached: HostSystem | null = null;

/** Read once: the host does not change under a running daemon. */
export function hostSystem(): HostSystem {
  cached ??= {
    hostname: hostname(),
    os: GO_OS.get(process.platform) ?? process.platform,
    ...platformFromOsRelease(readOsRelease()),
    arch: GO_ARCH.get(process.arch) ?? process.arch,
  };
  return cached;
}
