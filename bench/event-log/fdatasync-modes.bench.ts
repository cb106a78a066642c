// bench/event-log/fdatasync-modes: what one fdatasync costs after a small write, by where the write
// lands: appended past the end (the file grows: the size change is metadata the filesystem must
// commit too), over bytes written earlier as zeros (a data-only flush), or into fallocate'd space
// (unwritten extents: their conversion is a metadata commit). The modes alternate write by write,
// so they share the disk's noise. Run: `npm run bench:fdatasync-modes` (BENCH_DIR: a folder on the
// disk to measure, the temp folder by default; BENCH_WRITES per mode, 1500; BENCH_WRITE_BYTES, 4096).
import { execFileSync } from 'node:child_process';
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from '../support/stats';

const WRITES = Number(process.env.BENCH_WRITES ?? 1500);
const WRITE_BYTES = Number(process.env.BENCH_WRITE_BYTES ?? 4096);
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'fdatasync-modes-'));

interface Mode {
  name: string;
  fd: number;
  position: number;
  samples: number[];
}

function zeroFilled(path: string, bytes: number): number {
  const fd = openSync(path, 'w');
  const zeros = Buffer.alloc(1024 * 1024);
  for (let at = 0; at < bytes; at += zeros.length) writeSync(fd, zeros, 0, Math.min(zeros.length, bytes - at), at);
  fdatasyncSync(fd);
  return fd;
}

function fallocated(path: string, bytes: number): number {
  execFileSync('fallocate', ['-l', String(bytes), path]);
  const fd = openSync(path, 'r+');
  fdatasyncSync(fd);
  return fd;
}

function syncedWrite(mode: Mode, data: Buffer): void {
  writeSync(mode.fd, data, 0, data.length, mode.position);
  const started = process.hrtime.bigint();
  fdatasyncSync(mode.fd);
  mode.samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  mode.position += data.length;
}

function main(): void {
  const bytes = WRITES * WRITE_BYTES;
  const modes: Mode[] = [
    { name: 'append (file grows)', fd: openSync(join(dir, 'append'), 'w'), position: 0, samples: [] },
    { name: 'overwrite pre-zeroed', fd: zeroFilled(join(dir, 'zeroed'), bytes), position: 0, samples: [] },
    { name: "into fallocate'd space", fd: fallocated(join(dir, 'fallocated'), bytes), position: 0, samples: [] },
  ];
  const data = Buffer.alloc(WRITE_BYTES, 0x5a);
  const fs = execFileSync('df', ['-T', dir]).toString().trim().split('\n').pop();
  console.log(`fdatasync after a ${WRITE_BYTES}-byte write, ${WRITES} per mode, alternating; folder ${dir}`);
  console.log(`  df -T: ${fs}`);
  for (let i = 0; i < WRITES; i++) for (const mode of modes) syncedWrite(mode, data);
  console.log('| where the write lands | fdatasync p50 | p90 | p99 | mean |');
  console.log('|---|---:|---:|---:|---:|');
  for (const mode of modes) {
    const sorted = [...mode.samples].sort((a, b) => a - b);
    const mean = sorted.reduce((sum, v) => sum + v, 0) / sorted.length;
    const ms = (v: number): string => `${v.toFixed(3)} ms`;
    console.log(
      `| ${mode.name} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 90))} | ${ms(percentile(sorted, 99))} | ${ms(mean)} |`,
    );
    closeSync(mode.fd);
  }
}

try {
  main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
