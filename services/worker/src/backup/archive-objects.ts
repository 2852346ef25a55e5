// Where an instance's backup objects live in the bucket, and what a log segment's object holds.
//
//   instances/<instance>/t<timeline>/<segment>.seg            a sealed segment, whole
//   instances/<instance>/t<timeline>/<segment>.part-<from>-<to> a piece of the active segment, its
//                                                             bytes from..to (its durable tail, stored
//                                                             each seal interval, as pg_receivewal
//                                                             keeps .partial files)
//   instances/<instance>/bases/<backup>.manifest             a base's manifest (sealed-object.ts)
//
// Each instance has a prefix of its own and a data key of its own; nodes hold no credentials
// for the store at all (the control plane pulls and uploads), so no node can list or read
// another instance's objects. A segment object is the engine's BACKUP READ replies as the node
// sealed them — "BSG1" | pieces, each: length (u32 BE) | nonce (12) | ciphertext | tag (16) —
// and a piece opens only as the bytes at its own segment and offset (the engine's associated
// data: "basalt-backup-v1" | segment (u32 LE) | offset (u64 LE)).
import { createDecipheriv } from 'node:crypto';

const MAGIC = Buffer.from('BSG1');
const NONCE = 12;
const TAG = 16;
const AAD_PREFIX = Buffer.from('basalt-backup-v1');

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export function instancePrefix(instanceId: string): string {
  return `instances/${instanceId}/`;
}

export function segmentKey(instanceId: string, timeline: number, segment: number): string {
  return `${instancePrefix(instanceId)}t${timeline}/${pad(segment, 10)}.seg`;
}

export function partPrefix(instanceId: string, timeline: number, segment: number): string {
  return `${instancePrefix(instanceId)}t${timeline}/${pad(segment, 10)}.part-`;
}

/** The piece of `segment` holding its bytes from `from` up to `to`. */
export function partKey(instanceId: string, timeline: number, segment: number, from: number, to: number): string {
  return `${partPrefix(instanceId, timeline, segment)}${pad(from, 16)}-${pad(to, 16)}`;
}

/** The byte range a piece's key names (what `partKey` wrote). */
export function partRange(key: string): { from: number; to: number } {
  const [from, to] = key.slice(key.lastIndexOf('.part-') + 6).split('-').map(Number);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to! < from!) throw new Error(`${key} is not a segment piece's key`);
  return { from: from!, to: to! };
}

export function manifestKey(instanceId: string, backupId: string): string {
  return `${instancePrefix(instanceId)}bases/${backupId}.manifest`;
}

/** One object from the sealed pieces read in order. */
export function packPieces(pieces: Buffer[]): Buffer {
  const parts: Buffer[] = [MAGIC];
  for (const piece of pieces) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(piece.length);
    parts.push(length, piece);
  }
  return Buffer.concat(parts);
}

export class SegmentObjectError extends Error {}

/**
 * The plaintext of a segment object whose first piece starts at `offset` of segment `segment`,
 * each piece opened with the instance's data key; throws naming `objectKey` and the piece.
 */
export function openSegmentObject(key: Buffer, objectKey: string, segment: number, offset: number, object: Buffer): Buffer {
  if (!object.subarray(0, MAGIC.length).equals(MAGIC)) throw new SegmentObjectError(`${objectKey}: not a segment object (no BSG1 header)`);
  const out: Buffer[] = [];
  let at = MAGIC.length;
  let position = offset;
  for (let index = 0; at < object.length; index++) {
    if (object.length - at < 4) throw new SegmentObjectError(`${objectKey}: cut short in piece ${index}`);
    const length = object.readUInt32BE(at);
    const end = at + 4 + length;
    if (length < NONCE + TAG || end > object.length) throw new SegmentObjectError(`${objectKey}: cut short in piece ${index}`);
    const piece = object.subarray(at + 4, end);
    const aad = Buffer.alloc(AAD_PREFIX.length + 12);
    AAD_PREFIX.copy(aad);
    aad.writeUInt32LE(segment, AAD_PREFIX.length);
    aad.writeBigUInt64LE(BigInt(position), AAD_PREFIX.length + 4);
    const decipher = createDecipheriv('aes-256-gcm', key, piece.subarray(0, NONCE));
    decipher.setAAD(aad);
    decipher.setAuthTag(piece.subarray(piece.length - TAG));
    try {
      out.push(decipher.update(piece.subarray(NONCE, piece.length - TAG)), decipher.final());
    } catch {
      throw new SegmentObjectError(`${objectKey}: piece ${index} (segment ${segment} offset ${position}) does not open with the instance's data key`);
    }
    position += length - NONCE - TAG;
    at = end;
  }
  return Buffer.concat(out);
}
