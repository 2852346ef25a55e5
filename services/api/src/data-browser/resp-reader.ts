// RESP2 replies read as they stream in, with bounded memory: of each bulk string only its first
// `bulkBytes` are kept (its true length is counted), of all the reply's bulks at most
// `totalBytes`, and at most `items` elements in all (over every nested array; the rest are
// parsed, counted and dropped). So `GET` of a 500 MB value or `HGETALL` of a million fields
// costs the API what it shows, not what the engine holds. Framing is checked; anything that is
// not RESP2 is a ProtocolError, never a guess.

export type Reply =
  | { kind: 'simple'; text: string }
  | { kind: 'error'; text: string }
  | { kind: 'integer'; value: string }
  /** `bytes`: the kept prefix; `length`: the true length. */
  | { kind: 'bulk'; bytes: Buffer; length: number }
  | { kind: 'nil' }
  /** `items`: the kept elements; `length`: how many the engine sent. */
  | { kind: 'array'; items: Reply[]; length: number };

export interface ReplyLimits {
  bulkBytes: number;
  totalBytes: number;
  items: number;
}

export class ProtocolError extends Error {}

/** The longest status, error or header line accepted (Redis' own inline limit is 64 KiB). */
const LINE_MAX = 64 * 1024;
const DEPTH_MAX = 32;
const INTEGER = /^-?\d{1,19}$/;

interface OpenArray {
  items: Reply[];
  length: number;
  remaining: number;
}

interface OpenBulk {
  kept: Buffer[];
  keptBytes: number;
  length: number;
  /** Bytes still to read, the closing CRLF included. */
  remaining: number;
}

export class ReplyReader {
  private line: Buffer[] = [];
  private lineBytes = 0;
  private readonly stack: OpenArray[] = [];
  private bulk: OpenBulk | undefined;
  private readonly ready: Reply[] = [];
  // Per top-level reply.
  private keptBytes = 0;
  private keptItems = 0;

  constructor(private readonly limits: ReplyLimits) {}

  /** The next whole reply, in order, once it has arrived. */
  take(): Reply | undefined {
    return this.ready.shift();
  }

  feed(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.bulk) {
        at = this.readBulk(chunk, at);
        continue;
      }
      const eol = chunk.indexOf(0x0a, at);
      if (eol < 0) {
        this.lineBytes += chunk.length - at;
        if (this.lineBytes > LINE_MAX) throw new ProtocolError('a reply line is too long');
        this.line.push(chunk.subarray(at));
        return;
      }
      const piece = chunk.subarray(at, eol + 1);
      const line = this.line.length ? Buffer.concat([...this.line, piece]) : piece;
      this.line = [];
      this.lineBytes = 0;
      at = eol + 1;
      this.readLine(line);
    }
  }

  private readLine(line: Buffer): void {
    if (line.length < 3 || line[line.length - 2] !== 0x0d) throw new ProtocolError('a reply line does not end with CRLF');
    const body = line.toString('utf8', 1, line.length - 2);
    switch (line[0]) {
      case 0x2b: // +
        return this.complete({ kind: 'simple', text: body });
      case 0x2d: // -
        return this.complete({ kind: 'error', text: body });
      case 0x3a: // :
        if (!INTEGER.test(body)) throw new ProtocolError('a malformed integer reply');
        return this.complete({ kind: 'integer', value: body });
      case 0x24: {
        // $
        const length = this.count(body);
        if (length < 0) return this.complete({ kind: 'nil' });
        this.bulk = { kept: [], keptBytes: 0, length, remaining: length + 2 };
        return;
      }
      case 0x2a: {
        // *
        const length = this.count(body);
        if (length < 0) return this.complete({ kind: 'nil' });
        if (length === 0) return this.complete({ kind: 'array', items: [], length: 0 });
        if (this.stack.length >= DEPTH_MAX) throw new ProtocolError('a reply nested too deep');
        this.stack.push({ items: [], length, remaining: length });
        return;
      }
      default:
        throw new ProtocolError(`an unexpected reply type ${JSON.stringify(String.fromCharCode(line[0]!))}`);
    }
  }

  private count(text: string): number {
    if (!INTEGER.test(text)) throw new ProtocolError('a malformed length');
    const n = Number(text);
    if (n < -1 || !Number.isSafeInteger(n)) throw new ProtocolError('a malformed length');
    return n;
  }

  private readBulk(chunk: Buffer, at: number): number {
    const bulk = this.bulk!;
    const n = Math.min(bulk.remaining, chunk.length - at);
    const dataLeft = Math.max(0, bulk.remaining - 2);
    // An element past the item budget is dropped once whole: keep none of it.
    const dropped = this.stack.length > 0 && this.keptItems >= this.limits.items;
    const room = dropped ? 0 : Math.min(this.limits.bulkBytes - bulk.keptBytes, this.limits.totalBytes - this.keptBytes);
    const keep = Math.max(0, Math.min(n, dataLeft, room));
    if (keep > 0) {
      bulk.kept.push(Buffer.from(chunk.subarray(at, at + keep)));
      bulk.keptBytes += keep;
      this.keptBytes += keep;
    }
    bulk.remaining -= n;
    if (bulk.remaining === 0) {
      this.bulk = undefined;
      this.complete({ kind: 'bulk', bytes: Buffer.concat(bulk.kept), length: bulk.length });
    }
    return at + n;
  }

  private complete(reply: Reply): void {
    let value = reply;
    for (;;) {
      const top = this.stack[this.stack.length - 1];
      if (!top) {
        this.ready.push(value);
        this.keptBytes = 0;
        this.keptItems = 0;
        return;
      }
      if (this.keptItems < this.limits.items) {
        top.items.push(value);
        this.keptItems++;
      }
      if (--top.remaining > 0) return;
      this.stack.pop();
      value = { kind: 'array', items: top.items, length: top.length };
    }
  }
}
