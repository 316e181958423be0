// Agents sending large event frames, in their own process (masking a client's frames costs that process, not the prober's).
//   node frame-senders.js URL PASSWORD PREFIX SESSIONS FRAMES BYTES [SHAPE]
//     SESSIONS agents PREFIX-0… each send FRAMES event frames of BYTES bytes, then a small `done` event (SHAPE `output`: one long output; `labels`: many small
//     labels, what costs a parser and every walk most per byte); prints one JSON
//     line once every socket took them and stayed open 2 s (`sent`) or closed (`closes`: the close codes), and stays until killed.
import { WebSocket } from 'ws';

const [url, password, prefix, sessions, frames, bytes, shape = 'output'] = process.argv.slice(2) as [string, string, string, string, string, string, string?];
const authorization = 'Basic ' + Buffer.from(`agent:${password}`).toString('base64');

function open(name: string): Promise<WebSocket> {
  const ws = new WebSocket(url, {
    headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', authorization },
    perMessageDeflate: false,
  });
  ws.on('message', () => undefined);
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => ws.once('open', () => resolve(ws)).once('unexpected-response', () => reject(new Error(`${name} refused`))));
}

/** An event frame of `size` bytes (its output fills it) for check `check` of agent `name`. */
function eventFrame(name: string, check: string, size: number): Buffer {
  const now = Math.floor(Date.now() / 1000);
  const shell = (output: string, labels: Record<string, string> = {}) =>
    `event\n${JSON.stringify({ entity: { metadata: { name, namespace: 'default' }, entity_class: 'agent' }, check: { metadata: { name: check, namespace: 'default', labels }, output, status: 1, interval: 60, executed: now, issued: now } })}`;
  const room = Math.max(0, size - Buffer.byteLength(shell('')));
  if (shape !== 'labels' || check === 'done') return Buffer.from(shell('x'.repeat(room)));
  // Each label `"l123456":"v",` is 15 bytes: as many as fit.
  const labels = Object.fromEntries(Array.from({ length: Math.floor(room / 15) }, (_, i) => [`l${String(i).padStart(6, '0')}`, 'v']));
  return Buffer.from(shell('', labels));
}

const names = Array.from({ length: Number(sessions) }, (_, i) => `${prefix}-${i}`);
const sockets = await Promise.all(names.map(open));
const outcomes = sockets.map(async (ws, i) => {
  const frame = eventFrame(names[i]!, 'big', Number(bytes));
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  const sends = Array.from({ length: Number(frames) }, () => new Promise<boolean>((resolve) => ws.send(frame, (error) => resolve(!error))));
  sends.push(new Promise<boolean>((resolve) => ws.send(eventFrame(names[i]!, 'done', 200), (error) => resolve(!error))));
  // A refused frame's bytes are read and dropped by the backend before it closes: sent, then closed, says refused.
  const allSent = (await Promise.all(sends)).every(Boolean);
  return Promise.race([closed, new Promise<'sent'>((resolve) => setTimeout(() => resolve('sent'), allSent ? 2000 : 30_000))]);
});
const results = await Promise.all(outcomes);
process.stdout.write(
  JSON.stringify({ frame_bytes: Number(bytes), sent: results.filter((r) => r === 'sent').length, closes: results.filter((r) => r !== 'sent') }) + '\n',
);
