// What a partition's folder holds, read straight from its files: what the embedded log's crash
// tests compare with what must be there. Not used by the log itself.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeFrames } from './journal-file';
import { decodeSegmentRecord } from './record-codec';
import { inflateBlocks } from './segment-compression';

/** The offsets of every record in the folder's segment files (compressed ones inflated), in file order; throws on a bad frame. */
export function offsetsInFolder(folder: string): number[] {
  const offsets: number[] = [];
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.log'))
    .sort();
  for (const file of files) {
    const path = join(folder, file);
    const stored = readFileSync(path);
    const data = file.endsWith('.br.log') ? inflateBlocks(stored, 0, path, file) : stored;
    const end = decodeFrames(data, 0, data.length, (payload) => offsets.push(decodeSegmentRecord(payload).o));
    if (end < data.length) throw new Error(`${path}: a bad frame at byte ${end} (of ${data.length} plain bytes)`);
  }
  return offsets;
}
