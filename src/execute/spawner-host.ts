// The spawner helper process: forks commands for the daemon so that fork's cost (which grows with the
// forking process's memory) and its blocking of the event loop stay out of the daemon (DESIGN, measured facts).
import { spawnCommand, stopAllGroups, type SpawnOptions } from './spawn.js';

interface Request {
  readonly id: number;
  readonly command?: string;
  readonly options?: SpawnOptions;
  readonly stopAll?: number;
}

// Once the daemon disconnected, results have nowhere to go (sending would throw).
const send = (message: unknown) => void (process.connected && process.send?.(message));

process.on('message', (request: Request) => {
  if (request.stopAll !== undefined) {
    void stopAllGroups(request.stopAll).then(() => send({ id: request.id, stopped: true }));
    return;
  }
  void spawnCommand(request.command!, request.options ?? {}).then((result) => send({ id: request.id, result }));
});

// The daemon went away (even by kill -9): stop what we started, then leave.
process.on('disconnect', () => void stopAllGroups(1000).then(() => process.exit(0)));
process.on('SIGTERM', () => undefined); // the daemon's process group gets its signals; the daemon decides when we stop
process.on('SIGINT', () => undefined);
// Without a listener SIGUSR1 opens Node's inspector, whose local port takes any local user's code: a command can signal us.
process.on('SIGUSR1', () => undefined);
