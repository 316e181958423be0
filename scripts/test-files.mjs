// The suite's test files, the long ones (fault injection, several servers, the real agent and backend) spread evenly
// among the short ones: neither several long ones at once nor a long one running alone at the end.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const LONG = new Set(['faults', 'e2e', 'interop', 'agentd', 'api']);

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? testFiles(path) : entry.name.endsWith('.test.js') ? [path] : [];
  });
}

const files = testFiles(join('dist', 'test')).sort();
const long = files.filter((file) => LONG.has(file.split('/')[2]));
const short = files.filter((file) => !LONG.has(file.split('/')[2]));
const ordered = [];
for (let i = 0, j = 0; i < long.length || j < short.length;) {
  // One long file, then as many short ones as keep the two lists ending together.
  if (i < long.length) ordered.push(long[i++]);
  const due = Math.round((i * short.length) / Math.max(long.length, 1));
  while (j < short.length && (j < due || i >= long.length)) ordered.push(short[j++]);
}
// The longest file by far (about 3 minutes of Ansible plays against two servers) starts first: last among the long
// ones, it ran nearly alone for its last two minutes and set the suite's length.
const FIRST = [join('dist', 'test', 'interop', 'ansible-collection.test.js')];
const first = FIRST.filter((file) => ordered.includes(file));
process.stdout.write([...first, ...ordered.filter((file) => !first.includes(file))].join('\n') + '\n');
