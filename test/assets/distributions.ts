// The release files each distribution ships under /etc, and what gopsutil (Sensu Go's agent) reports for them.
export const etc =
  (files: Record<string, string>) =>
  (name: string): string | null =>
    files[name] ?? null;
export const UBUNTU_ETC = {
  'os-release': 'NAME="Ubuntu"\nVERSION_ID="22.04"\nID=ubuntu\nID_LIKE=debian\n',
  debian_version: 'bookworm/sid\n',
  'lsb-release': 'DISTRIB_ID=Ubuntu\nDISTRIB_RELEASE=22.04\n',
};

// Fixtures are the release files each distribution ships; the answers are gopsutil's (what Sensu Go's agent reports).
export const DISTRIBUTIONS: ReadonlyArray<[string, Record<string, string>, string, string, string]> = [
  [
    'RHEL 8',
    {
      'redhat-release': 'Red Hat Enterprise Linux release 8.9 (Ootpa)\n',
      'system-release': 'Red Hat Enterprise Linux release 8.9 (Ootpa)\n',
      'os-release': 'ID="rhel"\nID_LIKE="fedora"\nVERSION_ID="8.9"\n',
    },
    'redhat',
    'rhel',
    '8.9',
  ],
  [
    'Oracle Linux 8',
    {
      'oracle-release': 'Oracle Linux Server release 8.9\n',
      'redhat-release': 'Red Hat Enterprise Linux release 8.9 (Ootpa)\n',
      'os-release': 'ID="ol"\nID_LIKE="fedora"\nVERSION_ID="8.9"\n',
    },
    'oracle',
    'rhel',
    '8.9',
  ],
  [
    'Amazon Linux 2',
    { 'system-release': 'Amazon Linux release 2 (Karoo)\n', 'os-release': 'ID="amzn"\nID_LIKE="centos rhel fedora"\nVERSION_ID="2"\n' },
    'amazon',
    'rhel',
    '2',
  ],
  [
    'CentOS 7',
    { 'redhat-release': 'CentOS Linux release 7.9.2009 (Core)\n', 'os-release': 'ID="centos"\nID_LIKE="rhel fedora"\n' },
    'centos',
    'rhel',
    '7.9.2009',
  ],
  [
    'Rocky 9',
    { 'redhat-release': 'Rocky Linux release 9.3 (Blue Onyx)\n', 'os-release': 'ID="rocky"\nID_LIKE="rhel centos fedora"\nVERSION_ID="9.3"\n' },
    'rocky',
    'rhel',
    '9.3',
  ],
  ['Fedora 39', { 'redhat-release': 'Fedora release 39 (Thirty Nine)\n', 'os-release': 'ID=fedora\nVERSION_ID=39\n' }, 'fedora', 'fedora', '39'],
  [
    'Linux Mint 21',
    {
      debian_version: 'bookworm/sid\n',
      'lsb-release': 'DISTRIB_ID=LinuxMint\nDISTRIB_RELEASE=21.3\n',
      'os-release': 'ID=linuxmint\nID_LIKE="ubuntu debian"\nVERSION_ID="21.3"\n',
    },
    'linuxmint',
    'debian',
    '21.3',
  ],
  [
    'Debian 12',
    { debian_version: '12.5\n', 'os-release': 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\nID=debian\n' },
    'debian',
    'debian',
    '12.5',
  ],
  ['Ubuntu 22.04', UBUNTU_ETC, 'ubuntu', 'debian', '22.04'],
  ['Alpine 3.19', { 'alpine-release': '3.19.1\n', 'os-release': 'ID=alpine\nVERSION_ID=3.19.1\n' }, 'alpine', 'alpine', '3.19.1'],
  [
    'openSUSE Leap 15.5',
    { 'os-release': 'NAME="openSUSE Leap"\nID="opensuse-leap"\nID_LIKE="suse opensuse"\nVERSION_ID="15.5"\n' },
    'opensuse-leap',
    'suse',
    '15.5',
  ],
  ['Arch', { 'arch-release': '', 'os-release': 'ID=arch\n' }, 'arch', 'arch', ''],
  ['an unknown os-release', { 'os-release': 'ID=nixos\nID_LIKE=""\nVERSION_ID="23.11"\n' }, 'nixos', '', '23.11'],
];
