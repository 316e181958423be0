// Sensu's own Ansible collection (sensu.sensu_go) as a real client of the real sensu-backend 6.12 and of checkbridge:
// every community module's tasks end alike on both, and every task converges on checkbridge (again: no change).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, ADMIN_PASSWORD } from '../helpers/instance.js';
import { backendSkipReason, startBackend, BACKEND_ADMIN_PASSWORD } from '../helpers/sensu-backend.js';
import { ansibleSkipReason, playPlaybook, type TaskResult } from '../helpers/ansible.js';
import { COMMUNITY, ENTERPRISE, sentBackAsServed, datastoreTasks, playbook, type Outcome, type Task } from './ansible-tasks.js';

// Non-strict, so stored without connecting: the API's handling of the DSN is what is played, not PostgreSQL.
const DSN = 'postgresql://ansible:pg-secret-1@127.0.0.1:9/sensu';
const SERVED_DSN = DSN.replace('pg-secret-1', 'REDACTED');

const outcome = (r: TaskResult): Outcome => (r.failed ? 'failed' : r.changed ? 'changed' : 'ok');
const shown = (r: TaskResult | undefined) => (r ? `${outcome(r)}${r.failed ? ` (${String(r.msg).slice(0, 300)})` : ''}` : 'not run');

/** Each task's result by name; every task of the playbook must have been played. */
function byName(tasks: readonly Task[], results: readonly TaskResult[], who: string, stderr: string): Map<string, TaskResult> {
  const found = new Map(results.map((r) => [r.name, r]));
  const missing = tasks.filter((t) => !found.has(t.name)).map((t) => t.name);
  assert.deepEqual(missing, [], `${who}: tasks not played (${stderr.slice(-1500)})`);
  return found;
}

test(
  "Sensu's Ansible collection: every module plays alike on Sensu Go and checkbridge, and converges on checkbridge",
  { skip: backendSkipReason() || ansibleSkipReason() },
  async (t) => {
    const [backend, ours] = await Promise.all([startBackend(t), instanceFor(t, { 'conf.d/empty.json': {} })]);
    const everything = [...COMMUNITY, ...ENTERPRISE, ...sentBackAsServed(), ...datastoreTasks(DSN, SERVED_DSN)];
    // One ansible-playbook run per backend, both at once.
    const [theirRun, ourRun] = await Promise.all([
      playPlaybook(playbook(COMMUNITY), backend.api, 'admin', BACKEND_ADMIN_PASSWORD),
      playPlaybook(playbook(everything), ours.v2, 'admin', ADMIN_PASSWORD),
    ]);
    const theirs = byName(COMMUNITY, theirRun.tasks, 'sensu-go', theirRun.stderr);
    const mine = byName(everything, ourRun.tasks, 'checkbridge', ourRun.stderr);

    const unlike = COMMUNITY.filter((task) => outcome(theirs.get(task.name)!) !== outcome(mine.get(task.name)!));
    // A listed difference must be exactly the one listed: Sensu Go's outcome as written, ours as expected.
    const unlisted = COMMUNITY.filter((task) => outcome(theirs.get(task.name)!) !== (task.sensuGo ?? outcome(mine.get(task.name)!)));
    const failed = everything.filter((task) => mine.get(task.name)!.failed);
    const notIdempotent = everything.filter((task) => /: (again|delete again)$/.test(task.name) && mine.get(task.name)!.changed);
    t.diagnostic(`community tasks alike: ${COMMUNITY.length - unlike.length} of ${COMMUNITY.length}`);
    t.diagnostic(`checkbridge: ${everything.length} tasks, ${failed.length} failed, ${notIdempotent.length} not idempotent`);
    for (const task of notIdempotent) t.diagnostic(`not idempotent: ${task.name}${task.because ? ` (${task.because})` : ''}`);

    for (const task of unlike) t.diagnostic(`unlike: ${task.name}: sensu-go ${shown(theirs.get(task.name))}, checkbridge ${shown(mine.get(task.name))}`);
    assert.deepEqual(
      {
        unlisted: unlisted.map((task) => `${task.name}: sensu-go ${shown(theirs.get(task.name))}, checkbridge ${shown(mine.get(task.name))}`),
        unexpected: everything
          .filter((task) => outcome(mine.get(task.name)!) !== task.expect)
          .map((task) => `${task.name}: ${shown(mine.get(task.name))}, expected ${task.expect}`),
      },
      { unlisted: [], unexpected: [] },
      'community tasks that end differently on the two backends (unlisted), and checkbridge tasks that end otherwise than a converging backend ends them',
    );
    // The enterprise modules' reads found what was written (the info task returned the resource).
    for (const task of everything.filter((x) => x.enterprise && x.name.endsWith(': info'))) {
      const returned = mine.get(task.name)!.returned;
      assert.ok(Array.isArray(returned) && returned.length > 0, `${task.name} returned ${JSON.stringify(returned)}`);
    }
  },
);
