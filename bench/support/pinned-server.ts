import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { taskset } from './pinned-child';

const root = resolve(__dirname, '../..');

/**
 * Starts a server script pinned to `core`; resolves once its stdout contains `readyText`.
 * `nodeArgs` go to Node before the script (e.g. `--inspect=127.0.0.1:<port>`).
 */
export function startPinnedServer(
  script: string,
  core: number,
  env: NodeJS.ProcessEnv,
  readyText: string,
  nodeArgs: string[] = [],
): Promise<ChildProcess> {
  // BENCH_PROFILE_DIR=<dir>: the server writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_PROFILE_DIR)}`]
    : [];
  const node = [process.execPath, ...profile, ...nodeArgs, 'scripts/run.js', script];
  const command = taskset() ? [taskset()!, '-c', String(core), ...node] : node;
  return new Promise((done, fail) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    // BENCH_SERVER_LOG=<file>: the servers' output is kept there too (their log, for a run that misbehaved).
    if (process.env.BENCH_SERVER_LOG)
      child.stdout!.pipe(createWriteStream(resolve(process.env.BENCH_SERVER_LOG), { flags: 'a' }));
    // Generous: on a machine shared with other jobs a pinned exchange has taken over 60 s to start.
    const timer = setTimeout(() => fail(new Error(`${script} not ready in 180 s`)), 180_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(readyText)) {
        clearTimeout(timer);
        done(child);
      }
    });
    // What it printed says why it stopped (its log goes to stdout, which is piped here).
    child.on('exit', (code) => fail(new Error(`${script} exited with ${code}:\n${out.slice(-4000)}`)));
  });
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}
