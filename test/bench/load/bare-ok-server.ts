// The same-run baseline for the client socket: a bare node:net server that parses each message and answers `ok`.
// Prints its port, then serves until killed.
import { createServer } from 'node:net';

const server = createServer({ allowHalfOpen: true }, (socket) => {
  let text = '';
  socket.on('data', (d) => (text += d));
  socket.on('end', () => {
    JSON.parse(text);
    socket.end('ok');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`));
