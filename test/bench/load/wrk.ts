import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function wrkPath(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

// PUT of a 1.5 KB event to 500 entities x 7 checks, with the given authorization.
function script(dir: string, authorization: string | null): string {
  const path = join(dir, `put-${Math.random().toString(36).slice(2)}.lua`);
  writeFileSync(
    path,
    `
local n = 0
request = function()
  n = n + 1
  local entity = "host-" .. (n % 500)
  local check = "check-" .. (n % 7)
  local body = '{"entity":{"entity_class":"proxy","metadata":{"name":"' .. entity .. '"}},"check":{"metadata":{"name":"' .. check .. '"},"interval":60,"status":' .. (n % 3) .. ',"output":"' .. string.rep("output " .. n .. " ", 20) .. '","executed":' .. (1700000000 + n) .. '}}'
  local headers = { ["content-type"] = "application/json"${authorization ? `, ["authorization"] = ${JSON.stringify(authorization)}` : ''} }
  return wrk.format("PUT", "/api/core/v2/namespaces/default/events/" .. entity .. "/" .. check, headers, body)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %d %d\\n", summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), summary.errors.status))
end
`,
  );
  return path;
}

/** wrk with `connections` (32) for `seconds`: requests/s and p50/p99 latency (ms); non-2xx answers count as errors. */
export function runWrk(
  dir: string,
  origin: string,
  authorization: string | null,
  seconds = 5,
  connections = 32,
): Promise<{ requests_per_s: number; p50_ms: number; p99_ms: number; non_2xx: number }> {
  const lua = script(dir, authorization);
  return new Promise((resolve, reject) => {
    execFile(wrkPath()!, ['-t2', `-c${connections}`, `-d${seconds}s`, '-s', lua, origin], (error, stdout) => {
      if (error) return reject(error);
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line) return reject(new Error(`wrk: ${stdout}`));
      const [requests, durationUs, p50, p99, non2xx] = line.split(' ').slice(1).map(Number) as [number, number, number, number, number];
      resolve({
        requests_per_s: Math.round(requests / (durationUs / 1e6)),
        p50_ms: +(p50 / 1000).toFixed(2),
        p99_ms: +(p99 / 1000).toFixed(2),
        non_2xx: non2xx,
      });
    });
  });
}
