// The handshake's name rules: which agent names and namespaces are refused, with which message, and repeated headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agentHeadersProblem, agentNameProblem, namespaceNameProblem } from '../../src/agentd/agent-name.js';

/** The request a real HTTP server receives for these headers (an array value is sent as that many header lines). */
async function received(headers: OutgoingHttpHeaders): Promise<IncomingMessage> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const arrived = new Promise<IncomingMessage>((resolve) =>
      server.once('request', (req: IncomingMessage, res) => {
        resolve(req);
        res.end();
      }),
    );
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/agentd', headers, agent: false }, (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end();
    });
    return await arrived;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

test('agent names of letters, digits, _ . - up to 255 characters are accepted', () => {
  for (const name of ['web-01', 'db_2.example.com', 'A', 'x'.repeat(255), '...']) assert.equal(agentNameProblem(name), null, name);
});

test('an agent name either API would refuse is refused, naming the name and the rule', () => {
  assert.equal(
    agentNameProblem('web 01'),
    'agent name "web 01" refused: an agent name (its entity and client name) cannot contain spaces or special characters',
  );
  // Sensu Go would take a colon; the legacy client door would not.
  assert.match(agentNameProblem('host:1') ?? '', /^agent name "host:1" refused: .*special characters/);
  assert.match(agentNameProblem('x'.repeat(256)) ?? '', /must be at most 255 characters$/);
  assert.match(agentNameProblem('') ?? '', /^agent name "" refused/);
});

test('the names . and .. are refused: no URL could read them back', () => {
  for (const name of ['.', '..'])
    assert.equal(agentNameProblem(name), `agent name "${name}" refused: an agent name (its entity and client name) cannot be . or .. (no URL can name it)`);
});

test('a long refused name is shown cut at 64 characters', () => {
  const problem = agentNameProblem(`${'a'.repeat(100)} b`)!;
  assert.ok(problem.startsWith(`agent name "${'a'.repeat(64)}…" refused`), problem);
  assert.ok(!problem.includes('a'.repeat(65)), problem);
});

test('a namespace is refused only when the v2 name rule refuses it; none given is the default one', () => {
  assert.equal(namespaceNameProblem(''), null);
  assert.equal(namespaceNameProblem('default'), null);
  // Sensu Go's rule takes a colon.
  assert.equal(namespaceNameProblem('team:ops'), null);
  assert.equal(namespaceNameProblem('team ops'), 'namespace "team ops" refused: a namespace name must be 1 to 255 letters, digits, _ . - : (not . or ..)');
  assert.match(namespaceNameProblem('..') ?? '', /^namespace "\.\." refused/);
});

test('the handshake headers: each given once, then the name, then the namespace', async () => {
  const once = await received({ 'Sensu-AgentName': 'web-01', 'Sensu-Namespace': 'default' });
  assert.equal(agentHeadersProblem(once, 'web-01', 'default'), null);
  assert.match(agentHeadersProblem(once, 'web 01', 'bad ns') ?? '', /^agent name "web 01" refused/, 'the name is judged before the namespace');
  assert.match(agentHeadersProblem(once, 'web-01', 'bad ns') ?? '', /^namespace "bad ns" refused/);

  const twoNames = await received({ 'Sensu-AgentName': ['a', 'b'], 'Sensu-Namespace': 'default' });
  assert.equal(agentHeadersProblem(twoNames, 'a', 'default'), 'the Sensu-AgentName header must be given once (got 2)');

  const threeNamespaces = await received({ 'Sensu-AgentName': 'a', 'Sensu-Namespace': ['x', 'y', 'z'] });
  assert.equal(agentHeadersProblem(threeNamespaces, 'a', 'x'), 'the Sensu-Namespace header must be given once (got 3)');
});
