import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { taskset } from '../support/pinned-child';

const root = resolve(__dirname, '../..');

/** A worker process pinned to a core, asked one question at a time over Node's IPC channel. */
export interface IpcWorker {
  request<T>(message: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

export function startIpcWorker(script: string, core: number, env: NodeJS.ProcessEnv = {}): IpcWorker {
  const node = [process.execPath, 'scripts/run.js', script];
  const command = taskset() ? [taskset()!, '-c', String(core), ...node] : node;
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    request: <T>(message: Record<string, unknown>) =>
      new Promise<T>((done, fail) => {
        const onExit = (code: number | null): void => fail(new Error(`${script} exited with ${code}`));
        child.once('exit', onExit);
        child.once('message', (reply) => {
          child.off('exit', onExit);
          done(reply as T);
        });
        child.send(message);
      }),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** The worker side: answers each message with what `handle` resolves to. */
export function serveIpc(handle: (message: Record<string, unknown>) => Promise<unknown>): void {
  process.on('message', (message: Record<string, unknown>) => {
    handle(message).then(
      (reply) => process.send!(reply),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
