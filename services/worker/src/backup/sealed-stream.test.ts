// The streamed seal and open (@basalt/db/sealed-stream: RDB exports and uploads) write and read
// the very objects the whole-buffer ones do, across frame boundaries, and fail as they do.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { openStream, sealedSize, sealStream } from '@basalt/db/sealed-stream';
import { FRAME_BYTES, open, seal } from './sealed-object.js';

const key = randomBytes(32);
/** `bytes` fed in uneven chunks, as a socket gives them. */
const chunked = (bytes: Buffer) => Readable.from(Array.from({ length: Math.ceil(bytes.length / 65_521) }, (_, i) => bytes.subarray(i * 65_521, (i + 1) * 65_521)));

describe('sealed streams', () => {
  for (const size of [0, 1, FRAME_BYTES, FRAME_BYTES + 1, 2 * FRAME_BYTES + 12_345]) {
    it(`${size} bytes: a streamed seal opens whole, a whole seal opens streamed`, async () => {
      const plain = randomBytes(size);
      const sealed = await buffer(chunked(plain).pipe(sealStream(key, 'k/1')));
      expect(sealed.length).toBe(sealedSize(size));
      expect(open(key, 'k/1', sealed).equals(plain)).toBe(true);
      expect((await buffer(chunked(seal(key, 'k/1', plain)).pipe(openStream(key, 'k/1')))).equals(plain)).toBe(true);
    });
  }

  it('a flipped byte, another key name, or a cut after a whole frame fails naming the frame', async () => {
    const sealed = seal(key, 'k/2', randomBytes(FRAME_BYTES + 10));
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 5]! ^= 1;
    await expect(buffer(chunked(flipped).pipe(openStream(key, 'k/2')))).rejects.toThrow(/frame 1 does not open/);
    await expect(buffer(chunked(sealed).pipe(openStream(key, 'k/other')))).rejects.toThrow(/frame 0 does not open/);
    const cut = sealed.subarray(0, 4 + 16 + FRAME_BYTES + 16);
    await expect(buffer(chunked(cut).pipe(openStream(key, 'k/2')))).rejects.toThrow(/frame 0 does not open/);
  });
});
