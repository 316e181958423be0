// The tokens of a check's command that the agent would render differently from legacy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenDifferences } from '../../src/rehearsal/tokens.js';

const client = { name: 'web', address: '10.0.0.1', disk: { warning: 80 }, tags: ['a', 'b'] };

test("tokens the labels render the same as the client's attributes are no difference", () => {
  assert.deepEqual(
    tokenDifferences('check -w :::disk.warning::: -c :::disk.critical|95::: -n :::name:::', client, { disk_warning: '80', address: '10.0.0.1' }),
    [],
  );
  assert.deepEqual(tokenDifferences('no tokens at all', client, {}), []);
});

test('a differing or missing label is named once, with the label it reads (never the values)', () => {
  assert.deepEqual(tokenDifferences('ping :::address::: && ping :::address:::', client, { address: '10.0.0.2' }), [
    { token: ':::address:::', label: 'address' },
  ]);
  assert.deepEqual(tokenDifferences('check -w :::disk.warning:::', client, {}), [{ token: ':::disk.warning:::', label: 'disk_warning' }]);
  assert.deepEqual(tokenDifferences(':::disk.critical|95:::', client, { disk_critical: '90' }), [{ token: ':::disk.critical|95:::', label: 'disk_critical' }]);
});
