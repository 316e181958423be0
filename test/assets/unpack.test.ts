// Unpacking an asset: no entry and no link may end outside the asset's directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entryProblem, linksProblem, resolveInTree } from '../../src/assets/unpack.js';

test('archive entries that escape the asset directory are refused', () => {
  assert.equal(entryProblem({ path: 'bin/tool', type: 'File', linkpath: '' }), null);
  assert.equal(entryProblem({ path: 'lib/libx.so', type: 'SymbolicLink', linkpath: 'libx.so.1' }), null);
  assert.equal(entryProblem({ path: 'bin/x', type: 'Link', linkpath: 'bin/tool' }), null);
  assert.match(entryProblem({ path: '../x', type: 'File', linkpath: '' })!, /escapes/);
  assert.match(entryProblem({ path: 'a/../../x', type: 'File', linkpath: '' })!, /escapes/);
  assert.match(entryProblem({ path: '/etc/passwd', type: 'File', linkpath: '' })!, /escapes/);
  assert.match(entryProblem({ path: 'bin/sh', type: 'SymbolicLink', linkpath: '/bin/sh' })!, /outside/);
  assert.match(entryProblem({ path: 'bin/up', type: 'SymbolicLink', linkpath: '../../etc' })!, /outside/);
  assert.match(entryProblem({ path: 'bin/hard', type: 'Link', linkpath: '../outside' })!, /outside/);
  assert.match(entryProblem({ path: 'dev/null', type: 'CharacterDevice', linkpath: '' })!, /not allowed/);
});

test("links are resolved through the archive's own links, as the kernel would: none may end outside", () => {
  const links = new Map([
    ['a/b', '..'],
    ['loop', 'loop'],
    ['bin', 'usr/bin'],
    ['abs', '/etc'],
  ]);
  assert.equal(resolveInTree('a/b/a/b', links), '');
  assert.equal(resolveInTree('a/b/a/b/../../..', links), null, 'lexically a, really three levels up');
  assert.equal(resolveInTree('bin/tool', links), 'usr/bin/tool');
  assert.equal(resolveInTree('bin/../lib', links), 'usr/lib');
  assert.equal(resolveInTree('loop/x', links), null, 'a loop');
  assert.equal(resolveInTree('abs', links), null, 'an absolute target');
  const dir = { path: 'a/', type: 'Directory' as const, linkpath: '' };
  const up = { path: 'a/b', type: 'SymbolicLink' as const, linkpath: '..' };
  assert.equal(linksProblem([dir, up]), null);
  assert.match(linksProblem([dir, up, { path: 'x', type: 'SymbolicLink', linkpath: 'a/b/a/b/../../..' }])!, /^x: link to .* points outside/);
  assert.match(linksProblem([{ path: 'x', type: 'SymbolicLink', linkpath: 'a/b/../../..' }, dir, up])!, /^x: link to .* points outside/, 'whatever the order');
  assert.match(linksProblem([dir, up, { path: 'a/b/file', type: 'File', linkpath: '' }])!, /^a\/b\/file: path passes through the symbolic link a\/b$/);
  assert.match(linksProblem([dir, up, { path: 'h', type: 'Link', linkpath: 'a/b/a/b/../../x' }])!, /^h: link to .* points outside/);
  assert.equal(
    linksProblem([
      { path: 'lib/libx.so', type: 'SymbolicLink', linkpath: 'libx.so.1' },
      { path: 'lib/libx.so.1', type: 'SymbolicLink', linkpath: 'libx.so.1.2' },
    ]),
    null,
  );
});
