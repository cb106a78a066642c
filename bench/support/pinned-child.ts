import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../..');

/** The core a load generator or peer runs on; the system under test gets the other one. */
export function taskset(): string | undefined {
  return existsSync('/usr/bin/taskset') ? '/usr/bin/taskset' : undefined;
}

/**
 * Runs a TypeScript worker of this workspace in its own process, pinned to `core` when taskset
 * exists, and resolves with the JSON object it prints as its last stdout line.
 */
export function runPinnedWorker<T>(
  script: string,
  args: string[],
  core: number,
  env: NodeJS.ProcessEnv = {},
): Promise<T> {
  const node = [process.execPath, 'scripts/run.js', script, ...args];
  const command = taskset() ? [taskset()!, '-c', String(core), ...node] : node;
  return new Promise((done, fail) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', fail);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return fail(new Error(`${script} ${args.join(' ')} exited with ${code}: ${last}`));
      try {
        done(JSON.parse(last) as T);
      } catch {
        fail(new Error(`${script} printed no result: ${out.slice(-500)}`));
      }
    });
  });
}
