import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { FRAME_BYTES, newDataKey, open, seal, SealedObjectError } from './sealed-object.js';

const key = newDataKey();

describe('sealed backup objects', () => {
  it('round-trips empty, small and multi-frame contents', () => {
    for (const size of [0, 1, 1000, FRAME_BYTES, FRAME_BYTES * 2 + 17]) {
      const plain = randomBytes(size);
      expect(open(key, 'a/b', seal(key, 'a/b', plain)).equals(plain)).toBe(true);
    }
  });

  it('refuses a flipped bit, another key, another object name, a cut and a dropped last frame', () => {
    const plain = randomBytes(FRAME_BYTES + 100);
    const sealed = seal(key, 'i/segments/1', plain);
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 40]! ^= 1;
    expect(() => open(key, 'i/segments/1', flipped)).toThrow(/frame 1 does not open/);
    expect(() => open(newDataKey(), 'i/segments/1', sealed)).toThrow(SealedObjectError);
    expect(() => open(key, 'i/segments/2', sealed)).toThrow(/frame 0 does not open/);
    expect(() => open(key, 'i/segments/1', sealed.subarray(0, sealed.length - 1))).toThrow(/cut short in frame 1/);
    // Only the first frame, whole: it was not sealed as the last one.
    const firstFrame = sealed.subarray(0, 4 + 4 + 12 + FRAME_BYTES + 16);
    expect(() => open(key, 'i/segments/1', firstFrame)).toThrow(/frame 0 does not open/);
    expect(() => open(key, 'x', Buffer.from('plain text'))).toThrow(/no BSO1 header/);
  });
});
