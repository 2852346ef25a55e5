// Sealed objects as streams (the worker's backup/sealed-object.ts holds the format): an RDB
// export or import may be gigabytes, so it is sealed and opened frame by frame as it flows,
// never held whole. The frames are the ones `seal` writes and `open` reads: "BSO1" | frames,
// each: plaintext length (u32 BE) | nonce (12) | ciphertext | tag (16), the associated data
// binding the object's key, the frame's index and whether it is the last. A frame is known to
// be the last only when the stream ends after it, so the opener holds one frame back.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/** The format's constants, shared with the worker's whole-buffer seal and open (sealed-object.ts). */
export const MAGIC = Buffer.from('BSO1');
/** Plaintext bytes per frame. */
export const SEALED_FRAME_BYTES = 4 << 20;
export const NONCE = 12;
export const TAG = 16;
export const FRAME_HEADER = 4 + NONCE;

export class SealedStreamError extends Error {}

/** A frame's associated data: the object's key, the frame's index, whether it is the last. */
export function frameAad(objectKey: string, index: number, last: boolean): Buffer {
  const position = Buffer.alloc(9);
  position.writeBigUInt64BE(BigInt(index));
  position[8] = last ? 1 : 0;
  return Buffer.concat([Buffer.from(objectKey, 'utf8'), position]);
}

/** The sealed size of `plainBytes` bytes (what the store is told the object's length is). */
export function sealedSize(plainBytes: number): number {
  const frames = Math.max(1, Math.ceil(plainBytes / SEALED_FRAME_BYTES));
  return MAGIC.length + frames * (FRAME_HEADER + TAG) + plainBytes;
}

/** Plain bytes in, the object sealed under `key` as stored at `objectKey` out. */
export function sealStream(key: Buffer, objectKey: string): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  const frame = (plain: Buffer, last: boolean): Buffer => {
    const nonce = randomBytes(NONCE);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(frameAad(objectKey, index++, last));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(plain.length);
    return Buffer.concat([length, nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  return new Transform({
    construct(done) {
      this.push(MAGIC);
      done();
    },
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      // A full frame goes once a byte after it has come: only then is it known not to be the last.
      if (pendingBytes > SEALED_FRAME_BYTES) {
        let all = Buffer.concat(pending);
        while (all.length > SEALED_FRAME_BYTES) {
          this.push(frame(all.subarray(0, SEALED_FRAME_BYTES), false));
          all = all.subarray(SEALED_FRAME_BYTES);
        }
        pending = [all];
        pendingBytes = all.length;
      }
      done();
    },
    flush(done) {
      this.push(frame(Buffer.concat(pending), true));
      done();
    },
  });
}

/** A sealed object in, its plaintext out; fails with SealedStreamError naming the frame. */
export function openStream(key: Buffer, objectKey: string): Transform {
  // Chunks are gathered until a whole frame is there, then joined once (not at every chunk).
  let parts: Buffer[] = [];
  let partsBytes = 0;
  let need: number | undefined;
  let headerRead = false;
  let index = 0;
  /** A whole frame read, not yet known to be the last. */
  let held: Buffer | undefined;
  const take = (bytes: number): Buffer => {
    const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const rest = all.subarray(bytes);
    parts = rest.length ? [rest] : [];
    partsBytes = rest.length;
    return all.subarray(0, bytes);
  };
  const open = (sealed: Buffer, last: boolean): Buffer => {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(4, FRAME_HEADER));
    decipher.setAAD(frameAad(objectKey, index, last));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(FRAME_HEADER, sealed.length - TAG)), decipher.final()]);
    } catch {
      throw new SealedStreamError(`${objectKey}: frame ${index} does not open with its key (damaged, cut short, or not this object)`);
    } finally {
      index++;
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      try {
        parts.push(chunk);
        partsBytes += chunk.length;
        if (!headerRead) {
          if (partsBytes < MAGIC.length) return done();
          if (!take(MAGIC.length).equals(MAGIC)) throw new SealedStreamError(`${objectKey}: not a sealed object (no BSO1 header)`);
          headerRead = true;
        }
        for (;;) {
          if (need === undefined) {
            if (partsBytes < 4) break;
            const length = (parts[0]!.length >= 4 ? parts[0]! : Buffer.concat(parts)).readUInt32BE(0);
            const frame = index + (held ? 1 : 0);
            if (length > SEALED_FRAME_BYTES) throw new SealedStreamError(`${objectKey}: frame ${frame} claims ${length} bytes (at most ${SEALED_FRAME_BYTES})`);
            need = FRAME_HEADER + length + TAG;
          }
          if (partsBytes < need) break;
          const frame = Buffer.from(take(need));
          need = undefined;
          // A frame after the held one: that was not the last.
          if (held) this.push(open(held, false));
          held = frame;
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        if (!headerRead || partsBytes > 0 || !held) throw new SealedStreamError(`${objectKey}: cut short in frame ${index + (held ? 1 : 0)}`);
        this.push(open(held, true));
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}
