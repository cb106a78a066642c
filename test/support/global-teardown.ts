/** Stops the embedded PostgreSQL that global-setup.ts started, if it started one. */
export default async function globalTeardown(): Promise<void> {
  const child = globalThis.embeddedPostgresForTests;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}
