import { randomInt } from 'node:crypto';
import type { Violation } from './answer-oracle';

/**
 * The seed the test command uses unless told otherwise: a landing is decided by the code, not by
 * the draw. Exploring is `FUZZ_SEED=random` (a fresh seed each run, printed); every seed that
 * found something so far found a real defect, which then joins the tests with its seed.
 */
const DEFAULT_SEED = 435618175;

/** FUZZ_SEED reproduces a run (the same inputs in the same order), `random` draws one; FUZZ_RUNS sets the inputs per class and protocol. */
export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): { seed: number; runs: number } {
  const seed =
    env.FUZZ_SEED === 'random'
      ? randomInt(0, 2 ** 31 - 1)
      : env.FUZZ_SEED !== undefined && env.FUZZ_SEED !== ''
        ? Number(env.FUZZ_SEED)
        : DEFAULT_SEED;
  const runs = env.FUZZ_RUNS !== undefined && env.FUZZ_RUNS !== '' ? Number(env.FUZZ_RUNS) : 300;
  if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(runs) || runs < 1)
    throw new Error(`FUZZ_SEED and FUZZ_RUNS must be integers (got ${env.FUZZ_SEED}, ${env.FUZZ_RUNS})`);
  return { seed, runs };
}

interface Finding extends Violation {
  area: string;
  target: string;
  input: string;
  request: string;
}

/**
 * Every violation of a run, kept (the run goes on after one: the server's state moved, so a
 * shrunk replay would not mean much), grouped by what went wrong where, each group shown with
 * its shortest input as the reproducer.
 */
export class FuzzReport {
  private readonly findings: Finding[] = [];
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly seconds = new Map<string, number>();

  constructor(
    readonly seed: number,
    readonly runs: number,
  ) {}

  count(area: string, bucket: string): void {
    const byBucket = this.counts.get(area) ?? new Map<string, number>();
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + 1);
    this.counts.set(area, byBucket);
  }

  took(area: string, ms: number): void {
    this.seconds.set(area, Math.round(ms / 100) / 10);
  }

  add(area: string, target: string, input: string, request: Buffer | string, violations: Violation[]): void {
    const text = typeof request === 'string' ? request : escapeBytes(request);
    for (const v of violations) this.findings.push({ ...v, area, target, input, request: text });
  }

  of(area: string): Finding[] {
    return this.findings.filter((f) => f.area === area);
  }

  /** One paragraph per group: kind, target, how often, the detail and the shortest input. */
  summary(area: string): string {
    const groups = new Map<string, Finding[]>();
    for (const f of this.of(area)) {
      const key = `${f.kind} | ${f.target} | ${f.detail.replace(/\d+/g, '#').slice(0, 50)}`;
      groups.set(key, [...(groups.get(key) ?? []), f]);
    }
    const lines = [
      `${area}: ${this.of(area).length} violations in ${groups.size} groups (FUZZ_SEED=${this.seed} FUZZ_RUNS=${this.runs})`,
    ];
    for (const [key, list] of groups) {
      const shortest = list.reduce((a, b) => (b.request.length < a.request.length ? b : a));
      lines.push(
        `- ${key} ×${list.length}\n    ${shortest.detail.slice(0, 300)}\n    input: ${shortest.input.slice(0, 400)}\n    bytes: ${shortest.request.slice(0, 600)}`,
      );
    }
    return lines.join('\n');
  }

  countsText(): string {
    return [...this.counts]
      .map(
        ([area, byBucket]) =>
          `${area} (${this.seconds.get(area) ?? '?'} s): ${[...byBucket].map(([b, n]) => `${b} ${n}`).join(', ')}`,
      )
      .join('\n');
  }
}

/** Printable bytes: control bytes and non-ASCII as \xNN, long runs shortened. */
export function escapeBytes(bytes: Buffer): string {
  const text = bytes.toString('latin1').replace(/(.)\1{40,}/gs, (run, c: string) => `${c.repeat(8)}…(${run.length}×)`);
  return text.replace(/[\x00-\x1f\x7f-\xff]/g, (c) =>
    c === '\r' ? '\\r' : c === '\n' ? '\\n' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
