import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Runs a load generator of this directory in a second process; resolves with the JSON line it prints. */
export function runLoad(script: string, args: readonly (string | number)[]): Promise<Record<string, number>> {
  const path = fileURLToPath(new URL(`./${script}.js`, import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path, ...args.map(String)], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${script}: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!));
    });
  });
}
