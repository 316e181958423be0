// The local entity's `system`, as Sensu Go's agent reports it: gopsutil's platform names and families, Go's arch names.
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

const GO_ARCH = new Map([
  ['x64', 'amd64'],
  ['ia32', '386'],
  ['arm', 'arm'],
  ['arm64', 'arm64'],
  ['ppc64', 'ppc64le'],
  ['s390x', 's390x'],
  ['riscv64', 'riscv64'],
  ['loong64', 'loong64'],
  ['mips', 'mips'],
  ['mipsel', 'mipsle'],
]);
const GO_OS = new Map([
  ['win32', 'windows'],
  ['sunos', 'solaris'],
]);

/** An /etc file's contents, or null when it is absent. */
export type EtcReader = (name: string) => string | null;

type Platform = Pick<HostSystem, 'platform' | 'platform_family' | 'platform_version'>;

// gopsutil (host/host_linux.go), which Sensu Go's agent reports: the family is looked up from the platform.
const FAMILIES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['debian', ['debian', 'ubuntu', 'linuxmint', 'raspbian', 'Kylin', 'cumuluslinux', 'uos', 'Deepin']],
  ['fedora', ['fedora']],
  ['rhel', ['oracle', 'centos', 'redhat', 'scientific', 'enterpriseenterprise', 'amazon', 'xenserver', 'cloudlinux', 'ibm_powerkvm', 'rocky', 'almalinux']],
  ['suse', ['suse', 'opensuse', 'opensuse-leap', 'opensuse-tumbleweed', 'opensuse-tumbleweed-kubic', 'sles', 'sled', 'caasp']],
  ...['gentoo', 'slackware', 'arch', 'exherbo', 'alpine', 'coreos', 'solus', 'neokylin', 'anolis'].map((f) => [f, [f]] as const),
];
const LSB_PLATFORMS = new Map([
  ['Ubuntu', 'ubuntu'],
  ['LinuxMint', 'linuxmint'],
  ['Kylin', 'Kylin'],
  ['"Cumulus Linux"', 'cumuluslinux'],
  ['uos', 'uos'],
  ['Deepin', 'Deepin'],
]);
const LSB_FALLBACK = new Map([
  ['RedHat', 'redhat'],
  ['Amazon', 'amazon'],
  ['ScientificSL', 'scientific'],
  ['XenServer', 'xenserver'],
]);

/** KEY=value lines split at the first two `=` as gopsutil does; `unquote` strips the quotes it strips. */
function keyValues(text: string, unquote: (value: string) => string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const parts = line.split('=');
    if (parts.length >= 2) fields.set(parts[0]!, unquote(parts[1]!));
  }
  return fields;
}

function lines(text: string): string[] {
  return text.split('\n').filter((line, i, all) => i < all.length - 1 || line !== '');
}

function redhatishVersion(text: string): string {
  const c = lines(text).join('').toLowerCase();
  if (c.includes('rawhide')) return 'rawhide';
  return /release (\w[\d.]*)/.exec(c)?.[1] ?? '';
}

function redhatishPlatform(text: string): string {
  const c = lines(text).join('').toLowerCase();
  return c.includes('red hat') ? 'redhat' : c.split(' ')[0]!;
}

function suseVersion(text: string): string {
  let version = '';
  for (const line of lines(text)) {
    const major = /VERSION = ([\d.]+)/.exec(line);
    const patch = /PATCHLEVEL = (\d+)/.exec(line);
    if (major) version = major[1]!;
    else if (patch) version = `${version}.${patch[1]}`;
  }
  return version;
}

/** The platform and its version from the first release file present, in gopsutil's order. */
function platformAndVersion(read: EtcReader): [string, string] {
  const present = (name: string): string | null => {
    const text = read(name);
    return text !== null && Buffer.byteLength(text) > 4 ? text : null;
  };
  const lsbText = read('lsb-release');
  const lsb = keyValues(lsbText ?? '', (v) => v.replaceAll('"', ''));
  const lsbId = lsb.get('DISTRIB_ID') ?? '';
  const lsbRelease = lsb.get('DISTRIB_RELEASE') ?? '';
  let text: string | null;
  if ((text = present('oracle-release') ?? present('enterprise-release'))) return ['oracle', redhatishVersion(text)];
  if ((text = present('slackware-version'))) return ['slackware', lines(text).join('').toLowerCase().replace('slackware ', '')];
  if ((text = present('debian_version'))) {
    const named = LSB_PLATFORMS.get(lsbId);
    if (named) return [named, lsbRelease];
    return [present('/usr/bin/raspi-config') ? 'raspbian' : 'debian', lines(text)[0] ?? ''];
  }
  for (const name of ['neokylin-release', 'redhat-release', 'system-release']) {
    if ((text = present(name))) return [redhatishPlatform(text), redhatishVersion(text)];
  }
  if ((text = present('gentoo-release'))) return ['gentoo', redhatishVersion(text)];
  if ((text = present('SuSE-release'))) return [text.toLowerCase().includes('opensuse') ? 'opensuse' : 'suse', suseVersion(text)];
  if (present('arch-release')) return ['arch', lsbRelease];
  if ((text = present('alpine-release'))) return ['alpine', lines(text)[0] ?? ''];
  if ((text = present('os-release'))) {
    const fields = keyValues(text, (v) => v.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1'));
    const id = fields.get('ID') ?? '';
    return [id === 'amzn' ? 'amazon' : id, fields.get('VERSION_ID') ?? ''];
  }
  if (lsbId) return [LSB_FALLBACK.get(lsbId) ?? lsbId.toLowerCase(), lsbRelease];
  return ['', ''];
}

/** platform, platform_family and platform_version exactly as Sensu Go's agent (gopsutil) derives them from /etc. */
export function platformFromEtc(read: EtcReader): Platform {
  const [found, version] = platformAndVersion(read);
  const platform = found.replace(/^"+|"+$/g, '');
  const family = FAMILIES.find(([, members]) => members.includes(platform))?.[0] ?? '';
  return { platform, platform_family: family, platform_version: version };
}

/** Reads /etc/<name>; `/usr/bin/raspi-config` is the one absolute path gopsutil looks at. */
function readEtc(name: string): string | null {
  try {
    return readFileSync(name.startsWith('/') ? name : `/etc/${name}`, 'utf8');
  } catch {
    return null;
  }
}

let cached: HostSystem | null = null;

/** Read once: the host does not change under a running daemon. */
export function hostSystem(): HostSystem {
  cached ??= {
    hostname: hostname(),
    os: GO_OS.get(process.platform) ?? process.platform,
    ...platformFromEtc(readEtc),
    arch: GO_ARCH.get(process.arch) ?? process.arch,
  };
  return cached;
}
