// What the v2 API says of this server: the connected agents, the bridge's outbox (when one is configured) and the
// process's families, in /health's annotations and in /metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServerFigures } from '../../../src/api/v2/server-figures.js';
import { BridgeSender, bridgeConfigOf } from '../../../src/bridge/index.js';
import { serverMetrics } from '../../../src/api/v2/server-metrics.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { sqliteStore } from '../../helpers/sqlite-store.js';

const agents = { connected: () => 3 };

test('with a bridge: its figures under checkbridge.bridge., the agents connected, then the process families', async (t) => {
  const store = sqliteStore(t);
  const sender = new BridgeSender(store.outbox, bridgeConfigOf({ url: 'http://127.0.0.1:1', api_key: 'k' }, {}, {})!, capturedLogger().logger);
  t.after(() => sender.stop());
  const figures = new ServerFigures({ agents, bridge: { status: () => sender.status, outbox: store.outbox }, process: serverMetrics() });
  assert.deepEqual(figures.annotations(), {
    'checkbridge.agents.connected': '3',
    'checkbridge.bridge.status': sender.status,
    'checkbridge.bridge.depth': '0',
    'checkbridge.bridge.oldest_age_s': '0',
    'checkbridge.bridge.delivered': '0',
    'checkbridge.bridge.dead_lettered': '0',
  });
  const text = await figures.metrics();
  assert.match(text, /^# HELP checkbridge_bridge_outbox_depth /);
  assert.match(text, /^checkbridge_bridge_up 0$/m);
  assert.match(text, /^# TYPE checkbridge_agents_connected gauge\ncheckbridge_agents_connected 3$/m);
  assert.match(text, /^sensu_go_events_processed\{status="success",type="check"\} 0$/m);
  assert.ok(text.indexOf('checkbridge_agents_connected 3') < text.indexOf('sensu_go_events_processed'), 'the process families last');
});

test('without a bridge: only the agents in the annotations; /metrics says there is none', async () => {
  const figures = new ServerFigures({ agents, bridge: null, process: serverMetrics() });
  assert.deepEqual(figures.annotations(), { 'checkbridge.agents.connected': '3' });
  const text = await figures.metrics();
  assert.match(text, /^# checkbridge: no bridge configured\n# HELP checkbridge_agents_connected /);
  assert.match(text, /^checkbridge_agents_connected 3$/m);
});
