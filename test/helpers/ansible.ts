// Sensu's own Ansible collection (sensu.sensu_go, in Debian's `ansible` package) as a real client: one
// ansible-playbook run, every task's outcome read from the json callback.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PYTHON = '/usr/bin/python3';
export const COLLECTION = '/usr/lib/python3/dist-packages/ansible_collections/sensu/sensu_go';

/** Why the collection cannot be played here (false when it can); in CI a missing piece fails instead of skipping. */
export function ansibleSkipReason(): string | false {
  const missing = [
    spawnSync('ansible-playbook', ['--version']).status === 0 ? null : 'ansible-playbook',
    existsSync(join(COLLECTION, 'plugins', 'modules')) ? null : `the collection sensu.sensu_go (${COLLECTION})`,
    spawnSync(PYTHON, ['-c', 'import bcrypt']).status === 0 ? null : 'the bcrypt module of python3',
  ].filter(Boolean);
  const reason = missing.length ? `${missing.join(', ')} absent: scripts/install-test-servers.sh installs them` : false;
  if (reason && process.env.CI === 'true') throw new Error(`${reason}: required in CI`);
  return reason;
}

export interface TaskResult {
  readonly name: string;
  readonly changed: boolean;
  readonly failed: boolean;
  readonly msg?: string;
  /** What the task returned (`object`, `objects`), for a failure's message. */
  readonly returned?: unknown;
}

/** Plays `playbook` (JSON text) against the Sensu API at `url` as `user`; the outcome of each task, in order. */
export async function playPlaybook(playbook: string, url: string, user: string, password: string): Promise<{ tasks: TaskResult[]; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'checkbridge-ansible-'));
  try {
    writeFileSync(join(dir, 'play.yml'), playbook);
    writeFileSync(join(dir, 'hosts'), `localhost ansible_connection=local ansible_python_interpreter=${PYTHON}\n`);
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      ANSIBLE_LOCAL_TEMP: join(dir, 'tmp'),
      ANSIBLE_REMOTE_TEMP: join(dir, 'tmp'),
      ANSIBLE_STDOUT_CALLBACK: 'json',
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_PIPELINING: '1',
      ANSIBLE_RETRY_FILES_ENABLED: '0',
      ANSIBLE_DEPRECATION_WARNINGS: '0',
      SENSU_URL: url,
      SENSU_USER: user,
      SENSU_PASSWORD: password,
    };
    const child = spawn('ansible-playbook', ['-i', join(dir, 'hosts'), join(dir, 'play.yml')], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise((resolve) => child.once('close', resolve));
    const start = stdout.indexOf('{');
    if (start < 0) throw new Error(`ansible-playbook printed no JSON: ${stdout.slice(-2000)} ${stderr.slice(-2000)}`);
    const report = JSON.parse(stdout.slice(start)) as {
      plays: {
        tasks: { task: { name: string }; hosts: Record<string, { changed?: boolean; failed?: boolean; msg?: string; object?: unknown; objects?: unknown }> }[];
      }[];
    };
    const tasks = report.plays.flatMap((play) =>
      play.tasks.map(({ task, hosts }) => {
        const host = hosts.localhost ?? {};
        return { name: task.name, changed: host.changed === true, failed: host.failed === true, msg: host.msg, returned: host.object ?? host.objects };
      }),
    );
    return { tasks, stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
