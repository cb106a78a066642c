import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, brotliDecompressSync, constants } from 'node:zlib';
import { CorruptEventLogError } from '../event-log-errors';
import { decodeFrames, encodeFrame } from './journal-file';
import { indexFileName, type SegmentMeta } from './segment-files';
import { syncFolderAsync } from './segment-manifest';

// Sealed segments rewritten as brotli blocks, off the append path. A compressed segment is a
// sequence of frames ([u32 length][u32 crc32][brotli bytes], journal-file.ts's framing), each
// inflating to the plain frames of whole records; its index (same format as a plain one) maps the
// first offset of each block to the block's byte position, so one old offset inflates one block.

/**
 * Raw bytes per block. Measured on the sealed segments of a soak run (43 segments, 50 MiB): brotli
 * quality 5 gives 8.6x in 16 KB blocks, 10.5x in 64 KB, 11.8x in 256 KB; inflating a 64 KB block
 * takes ~0.2 ms. 64 KB keeps a read of one old offset cheap and the ratio near its ceiling.
 */
export const COMPRESSED_BLOCK_BYTES = 64 * 1024;
/**
 * Quality 5: 10.5x at ~20 ms of a threadpool thread per raw MiB; 4 gave 9.3x at ~11 ms, 9 only
 * 10.8x at ~150 ms; deflate level 6 8.97x at ~14 ms (same run, 64 KB blocks).
 */
const BROTLI_QUALITY = 5;

export type SegmentCodec = 'brotli';

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);

/** The name of a segment's compressed file: a different name, so the manifest says which one counts. */
export const compressedFileName = (file: string): string => file.replace(/\.log$/, '.br.log');

interface PlannedBlock {
  offset: number;
  from: number;
  to: number;
}

/**
 * Groups a plain segment's index steps into blocks of at least `blockBytes` raw bytes (the last may
 * be smaller): blocks start at index entries, which start at records.
 */
export function planBlocks(index: ArrayLike<number>, bytes: number, blockBytes: number): PlannedBlock[] {
  const blocks: PlannedBlock[] = [];
  const entries = index.length / 2;
  for (let i = 0; i < entries;) {
    const from = index[i * 2 + 1]!;
    let j = i + 1;
    while (j < entries && index[j * 2 + 1]! - from < blockBytes) j += 1;
    blocks.push({ offset: index[i * 2]!, from, to: j < entries ? index[j * 2 + 1]! : bytes });
    i = j;
  }
  return blocks;
}

export interface CompressionControl {
  /** Asked before each block: true stops (the log is closing). */
  stopped: () => boolean;
  /** After each block written (the kill -9 tests stop there, mid-file). */
  onBlock?: () => void;
}

/**
 * Writes the compressed copy of a sealed plain segment beside it, block by block on the threadpool
 * (the event loop keeps serving appends and reads), with its index; both files and the folder are
 * synced before this returns, so the manifest may name them. Returns undefined, its files removed,
 * when stopped between blocks.
 */
export async function compressSegment(
  dir: string,
  segment: SegmentMeta,
  plainIndex: ArrayLike<number>,
  control: CompressionControl,
): Promise<SegmentMeta | undefined> {
  const file = compressedFileName(segment.file);
  const source = await open(join(dir, segment.file), 'r');
  const target = await open(join(dir, file), 'w');
  const index: number[] = [];
  let bytes = 0;
  let finished = false;
  try {
    for (const block of planBlocks(plainIndex, segment.bytes, COMPRESSED_BLOCK_BYTES)) {
      if (control.stopped()) return undefined;
      const raw = Buffer.allocUnsafe(block.to - block.from);
      const { bytesRead } = await source.read(raw, 0, raw.length, block.from);
      if (bytesRead !== raw.length)
        throw new CorruptEventLogError(
          join(dir, segment.file),
          block.from + bytesRead,
          'the sealed segment ends early',
        );
      const frame = encodeFrame(
        await compress(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        }),
      );
      await target.write(frame, 0, frame.length, bytes);
      index.push(block.offset, bytes);
      bytes += frame.length;
      control.onBlock?.();
    }
    await target.sync();
    const indexFile = await open(join(dir, indexFileName(file)), 'w');
    try {
      await indexFile.write(Buffer.from(new Float64Array(index).buffer));
      await indexFile.sync();
    } finally {
      await indexFile.close();
    }
    await syncFolderAsync(dir);
    finished = true;
    return { ...segment, file, bytes, codec: 'brotli' };
  } finally {
    await Promise.all([source.close(), target.close()]);
    if (!finished) await removeSegmentFiles(dir, file);
  }
}

export async function removeSegmentFiles(dir: string, file: string): Promise<void> {
  await Promise.all([rm(join(dir, file), { force: true }), rm(join(dir, indexFileName(file)), { force: true })]);
}

/**
 * The plain frames of the compressed blocks in data (read from byte `at` of `path`), concatenated.
 * A block that fails its checksum or does not inflate stops here, naming the file, the block's
 * byte and what it holds: never skipped.
 */
export function inflateBlocks(data: Buffer, at: number, path: string, holds: string): Buffer {
  const plain = compressedBlocks(data, at, path, holds).map((block) => {
    try {
      return brotliDecompressSync(block.payload);
    } catch {
      throw blockError(path, block.at, holds);
    }
  });
  return plain.length === 1 ? plain[0]! : Buffer.concat(plain);
}

/** inflateBlocks with each block inflated on the threadpool: for readers that must not hold the event loop. */
export async function inflateBlocksAsync(data: Buffer, at: number, path: string, holds: string): Promise<Buffer> {
  const plain: Buffer[] = [];
  for (const block of compressedBlocks(data, at, path, holds)) {
    try {
      plain.push(await decompress(block.payload));
    } catch {
      throw blockError(path, block.at, holds);
    }
  }
  return plain.length === 1 ? plain[0]! : Buffer.concat(plain);
}

/** The brotli payloads framed in data, each with its byte in the file; a frame failing its length or checksum throws. */
function compressedBlocks(data: Buffer, at: number, path: string, holds: string): { payload: Buffer; at: number }[] {
  const blocks: { payload: Buffer; at: number }[] = [];
  const end = decodeFrames(data, 0, data.length, (payload, position) => blocks.push({ payload, at: at + position }));
  if (end < data.length) throw blockError(path, at + end, holds);
  return blocks;
}

function blockError(path: string, at: number, holds: string): CorruptEventLogError {
  return new CorruptEventLogError(
    path,
    at,
    `a compressed block of ${holds} fails its length or checksum, or does not inflate`,
  );
}
