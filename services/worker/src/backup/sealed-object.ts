// What a backup object holds: its bytes sealed with the instance's data key (AES-256-GCM), in
// frames so that neither side holds a whole 64 MiB segment twice and a damaged object is found
// at the frame it is damaged in. Every frame's associated data binds the object's key, the
// frame's index and whether it is the last: a frame moved to another object, reordered, or an
// object cut short after a whole frame, fails to open as surely as a flipped bit.
//
// Layout (constants shared with @basalt/db/sealed-stream, which seals and opens as streams): "BSO1" | frames, each: plaintext length (u32 BE) | nonce (12) | ciphertext | tag (16).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { FRAME_HEADER, frameAad, MAGIC, NONCE, SEALED_FRAME_BYTES, TAG } from '@basalt/db/sealed-stream';

/** Plaintext bytes per frame. */
export const FRAME_BYTES = SEALED_FRAME_BYTES;

export class SealedObjectError extends Error {}

const aad = frameAad;

/** A fresh data key: 32 random bytes. */
export function newDataKey(): Buffer {
  return randomBytes(32);
}

/** `plain` sealed under `key` as the object stored at `objectKey`. */
export function seal(key: Buffer, objectKey: string, plain: Buffer): Buffer {
  const parts: Buffer[] = [MAGIC];
  const frames = Math.max(1, Math.ceil(plain.length / FRAME_BYTES));
  for (let index = 0; index < frames; index++) {
    const chunk = plain.subarray(index * FRAME_BYTES, (index + 1) * FRAME_BYTES);
    const nonce = randomBytes(NONCE);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(aad(objectKey, index, index === frames - 1));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(chunk.length);
    parts.push(length, nonce, cipher.update(chunk), cipher.final(), cipher.getAuthTag());
  }
  return Buffer.concat(parts);
}

/** The plaintext of an object sealed by `seal`; throws SealedObjectError naming the frame that fails. */
export function open(key: Buffer, objectKey: string, sealed: Buffer): Buffer {
  if (sealed.length < MAGIC.length || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new SealedObjectError(`${objectKey}: not a sealed backup object (no BSO1 header)`);
  }
  const out: Buffer[] = [];
  let at = MAGIC.length;
  for (let index = 0; ; index++) {
    if (sealed.length - at < FRAME_HEADER + TAG) throw new SealedObjectError(`${objectKey}: cut short in frame ${index}`);
    const length = sealed.readUInt32BE(at);
    if (length > FRAME_BYTES) throw new SealedObjectError(`${objectKey}: frame ${index} claims ${length} bytes (at most ${FRAME_BYTES})`);
    const end = at + FRAME_HEADER + length + TAG;
    if (end > sealed.length) throw new SealedObjectError(`${objectKey}: cut short in frame ${index}`);
    const last = end === sealed.length;
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(at + 4, at + FRAME_HEADER));
    decipher.setAAD(aad(objectKey, index, last));
    decipher.setAuthTag(sealed.subarray(end - TAG, end));
    try {
      out.push(decipher.update(sealed.subarray(at + FRAME_HEADER, end - TAG)), decipher.final());
    } catch {
      throw new SealedObjectError(`${objectKey}: frame ${index} does not open with the instance's data key (damaged, cut short, or not this object)`);
    }
    at = end;
    if (last) return Buffer.concat(out);
  }
}
