// What grew between two V8 heap snapshots (e.g. the two `bench:soak` writes with
// SOAK_HEAP_SNAPSHOTS=1): objects counted and their self size summed by node type and constructor,
// the largest growth first. A structure that keeps something per order shows as a constructor whose
// count grows with the orders between the snapshots. Run:
// `node scripts/run.js bench/soak/heap-snapshot-diff.ts <before.heapsnapshot> <after.heapsnapshot> [rows]`
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: (string[] | string)[] } };
  nodes: number[];
  strings: string[];
}

interface Tally {
  count: number;
  selfBytes: number;
}

/** Count and self size of the snapshot's objects, keyed by `type name` (name = constructor for objects). */
function tally(path: string): Map<string, Tally> {
  const heap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0] as string[];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const tallies = new Map<string, Tally>();
  for (let i = 0; i < heap.nodes.length; i += width) {
    const type = types[heap.nodes[i + typeAt]!]!;
    // Strings' and code's names are their contents: one key per type keeps the table readable.
    const named = type === 'object' || type === 'closure' || type === 'native' || type === 'hidden';
    const key = named ? `${type} ${heap.strings[heap.nodes[i + nameAt]!]!.slice(0, 60)}` : type;
    const entry = tallies.get(key) ?? { count: 0, selfBytes: 0 };
    entry.count++;
    entry.selfBytes += heap.nodes[i + sizeAt]!;
    tallies.set(key, entry);
  }
  return tallies;
}

function main(): void {
  const [beforePath, afterPath, rowsArg] = process.argv.slice(2);
  if (!beforePath || !afterPath) throw new Error('usage: heap-snapshot-diff.ts <before> <after> [rows]');
  const before = tally(beforePath);
  const after = tally(afterPath);
  const total = (t: Map<string, Tally>): number => [...t.values()].reduce((sum, e) => sum + e.selfBytes, 0);
  console.log(`self size ${(total(before) / 1e6).toFixed(1)} MB → ${(total(after) / 1e6).toFixed(1)} MB`);
  const rows = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
    const b = before.get(key) ?? { count: 0, selfBytes: 0 };
    const a = after.get(key) ?? { count: 0, selfBytes: 0 };
    return { key, b, a, grew: a.selfBytes - b.selfBytes };
  });
  // Largest change first; equal changes (one snapshot given twice: its contents) by size.
  rows.sort((x, y) => Math.abs(y.grew) - Math.abs(x.grew) || y.a.selfBytes - x.a.selfBytes);
  console.log('   Δ self MB   count before →   after  self MB before →  after  type and constructor');
  for (const { key, b, a, grew } of rows.slice(0, Number(rowsArg ?? 40))) {
    console.log(
      `${(grew / 1e6).toFixed(2).padStart(12)}  ${String(b.count).padStart(12)} → ${String(a.count).padStart(7)}  ${(b.selfBytes / 1e6).toFixed(2).padStart(14)} → ${(a.selfBytes / 1e6).toFixed(2).padStart(6)}  ${key}`,
    );
  }
}

main();
