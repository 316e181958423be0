// An agent of our own over the agent WebSocket that records every frame sent down to it (what the real agent hides).
import { WebSocket } from 'ws';

type Json = Record<string, any>;

export interface Recorder {
  readonly requests: Json[];
  readonly raw: string[];
  close(): void;
}

/** An agent that connects, keeps every frame it is sent, and answers each check request with an event, as Sensu Go's agent builds it from the request's config. */
export function recordingAgent(
  url: string,
  name: string,
  options: { password?: string; tls?: { ca: string; cert: string; key: string } } = {},
): Promise<Recorder> {
  const headers: Record<string, string> = { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-Subscriptions': 'linux' };
  if (options.password)
    Object.assign(headers, { 'Sensu-User': 'agent', authorization: 'Basic ' + Buffer.from(`agent:${options.password}`).toString('base64') });
  const ws = new WebSocket(url, { headers, ...options.tls });
  const recorder: Recorder = { requests: [], raw: [], close: () => ws.close() };
  ws.on('message', (data: Buffer) => {
    const text = data.toString();
    recorder.raw.push(text);
    const at = text.indexOf('\n');
    if (text.slice(0, at) !== 'check_request') return;
    const request = JSON.parse(text.slice(at + 1));
    recorder.requests.push(request);
    const now = Math.floor(Date.now() / 1000);
    const event = {
      entity: { metadata: { name, namespace: 'default' }, entity_class: 'agent' },
      check: { ...request.config, output: 'ran', status: 0, executed: now, issued: request.issued },
    };
    ws.send(Buffer.from(`event\n${JSON.stringify(event)}`));
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(recorder));
    ws.once('error', reject);
  });
}
