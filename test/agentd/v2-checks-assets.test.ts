// On the real Sensu Go 6.12 agent: a check's runtime assets travel with its request; the agent fetches one
// over HTTPS (a CA it trusts through --trusted-ca-file), checks its sha512 and finds its binary; an asset whose filters
// do not match the agent is not fetched, and the check's command is not found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tarGz, sha512 } from '../helpers/archives.js';
import { makeTestCa } from '../helpers/tls.js';
import { agentSkipReason, startAgent, agentFlags } from '../helpers/sensu-agent.js';
import { v2CheckInstance, eventWhere, refusals } from './v2-checks-helpers.js';

const skip = agentSkipReason();

test(
  'a runtime asset served over HTTPS is fetched by the agent and the check (and a hook) finds its binary; a filtered-out asset gives 127',
  { skip, timeout: 120_000 },
  async (t) => {
    const ca = makeTestCa();
    t.after(async () => ca.remove());
    const archives: Record<string, Buffer> = {
      '/hello.tar.gz': await tarGz({ 'bin/hello-tool': '#!/bin/sh\necho "hello from the asset $1"\n' }),
      '/windows.tar.gz': await tarGz({ 'bin/win-tool': '#!/bin/sh\necho never\n' }),
    };
    const asked: string[] = [];
    const server = createServer(ca.issue(['127.0.0.1']), (request, response) => {
      asked.push(String(request.url));
      const body = archives[String(request.url)];
      response.writeHead(body ? 200 : 404, { 'content-type': 'application/octet-stream' }).end(body ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const { agentd, event, put } = await v2CheckInstance(t);
    await put('assets', {
      metadata: { name: 'hello' },
      url: `${base}/hello.tar.gz`,
      sha512: sha512(archives['/hello.tar.gz']!),
      filters: ["entity.system.os == 'linux'"],
    });
    await put('assets', {
      metadata: { name: 'windows-only' },
      url: `${base}/windows.tar.gz`,
      sha512: sha512(archives['/windows.tar.gz']!),
      filters: ["entity.system.os == 'windows'"],
    });
    await put('checks', {
      metadata: { name: 'greet' },
      command: 'hello-tool world',
      interval: 1,
      publish: true,
      subscriptions: ['linux'],
      handlers: [],
      runtime_assets: ['hello'],
    });
    await put('checks', {
      metadata: { name: 'win-only' },
      command: 'win-tool',
      interval: 1,
      publish: true,
      subscriptions: ['linux'],
      handlers: [],
      runtime_assets: ['windows-only'],
    });
    // A hook's own runtime assets travel with the request too (Sensu Go's hook_assets).
    await put('hooks', { metadata: { name: 'asset-hook' }, command: 'hello-tool hook', timeout: 10, runtime_assets: ['hello'] });
    await put('checks', {
      metadata: { name: 'hooked' },
      command: 'exit 1',
      interval: 1,
      publish: true,
      subscriptions: ['linux'],
      handlers: [],
      check_hooks: [{ 'non-zero': ['asset-hook'] }],
    });
    const agent = await startAgent(t, agentd, 'fetcher', [...agentFlags(), '--subscriptions', 'linux', '--trusted-ca-file', ca.caFile]);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

    const greeted = await eventWhere(event, 'fetcher', 'greet', () => true);
    assert.equal(greeted.check.output.trim(), 'hello from the asset world', JSON.stringify(greeted.check));
    assert.equal(greeted.check.status, 0);
    assert.deepEqual(greeted.check.runtime_assets, ['hello']);

    const hooked = await eventWhere(event, 'fetcher', 'hooked', (e) => (e.check.hooks ?? []).length > 0);
    assert.equal(hooked.check.hooks[0].output.trim(), 'hello from the asset hook', JSON.stringify(hooked.check.hooks));
    assert.equal(hooked.check.hooks[0].status, 0);

    const filtered = await eventWhere(event, 'fetcher', 'win-only', () => true);
    assert.equal(filtered.check.status, 127, JSON.stringify(filtered.check));
    assert.match(filtered.check.output, /win-tool.*not found/);
    // Fetched once (the agent keeps it in its cache), the filtered one never.
    assert.deepEqual(asked, ['/hello.tar.gz']);
    assert.deepEqual(refusals(agent), [], 'no request refused by the agent');
  },
);
