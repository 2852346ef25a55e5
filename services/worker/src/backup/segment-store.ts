// Storing an instance's log segments in the bucket: a sealed segment whole (and its pieces
// stored while it was active removed), the active one's durable tail as a piece. The archiver
// and the backup job both store through here, under the instance's archive lease, so a
// segment is stored once and recorded once (archived_segments) whoever gets to it.
import { createHash } from 'node:crypto';
import type { BackupsRepository } from '@basalt/db';
import type { ObjectStore } from './object-store.js';
import { packPieces, partKey, partPrefix, partRange, segmentKey } from './archive-objects.js';
import { READ_BYTES, type EngineArchive, type SegmentInfo } from './engine-archive.js';

export interface ArchiveTarget {
  store: ObjectStore;
  backups: BackupsRepository;
  instanceId: string;
  timeline: number;
}

const timeOf = (ms: number) => (ms > 0 ? new Date(ms) : null);

async function readPieces(engine: EngineArchive, segment: number, from: number, to: number): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  for (let offset = from; offset < to; offset += READ_BYTES) pieces.push(await engine.read(segment, offset, Math.min(READ_BYTES, to - offset)));
  return pieces;
}

/** Stores a sealed segment whole and records it; returns the bytes stored. */
export async function storeSealedSegment(target: ArchiveTarget, engine: EngineArchive, segment: SegmentInfo): Promise<number> {
  if (!segment.sealed) throw new Error(`segment ${segment.id} is not sealed yet`);
  const object = packPieces(await readPieces(engine, segment.id, 0, segment.bytes));
  const key = segmentKey(target.instanceId, target.timeline, segment.id);
  const sha256 = createHash('sha256').update(object).digest('hex');
  await target.store.put(key, object, { sha256 });
  await target.backups.recordSegment({
    instanceId: target.instanceId,
    timeline: target.timeline,
    segment: segment.id,
    objectKey: key,
    sizeBytes: object.length,
    sha256,
    firstLsn: segment.firstLsn,
    lastLsn: segment.lastLsn,
    firstTime: timeOf(segment.firstTimeMs),
    lastTime: timeOf(segment.lastTimeMs),
  });
  // The whole segment holds what its pieces did.
  const pieces: string[] = [];
  for await (const piece of target.store.list(partPrefix(target.instanceId, target.timeline, segment.id))) pieces.push(piece.key);
  await target.store.deleteMany(pieces);
  return object.length;
}

/** Where the stored pieces of an active segment end (0: none stored): their keys say. */
export async function storedTailEnd(target: ArchiveTarget, segment: number): Promise<number> {
  let end = 0;
  for await (const piece of target.store.list(partPrefix(target.instanceId, target.timeline, segment))) end = Math.max(end, partRange(piece.key).to);
  return end;
}

/** Stores the active segment's durable bytes from `from` as a piece; returns where the stored tail ends. */
export async function storeActiveTail(target: ArchiveTarget, engine: EngineArchive, segment: SegmentInfo, from: number): Promise<number> {
  if (segment.bytes <= from) return from;
  const object = packPieces(await readPieces(engine, segment.id, from, segment.bytes));
  await target.store.put(partKey(target.instanceId, target.timeline, segment.id, from, segment.bytes), object);
  return segment.bytes;
}
