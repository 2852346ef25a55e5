// A command line split into arguments as redis-cli splits it (sdssplitargs in Redis' sds.c):
// words separated by spaces; "double quotes" with \n \r \t \b \a \\ \" and \xHH escapes;
// 'single quotes' with \' only; a closing quote must end the word. Every argument is bytes
// sent as one RESP bulk string, so nothing typed is ever spliced into a command's text.

export type SplitResult = { args: Uint8Array[] } | { error: string };

const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const hexValue = (c: number) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1);
const ESCAPES: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x61: 0x07 };

export function splitCommandLine(line: string): SplitResult {
  const bytes = new TextEncoder().encode(line);
  const args: Uint8Array[] = [];
  let p = 0;
  for (;;) {
    while (p < bytes.length && isSpace(bytes[p]!)) p++;
    if (p >= bytes.length) return { args };
    const current: number[] = [];
    let inDouble = false;
    let inSingle = false;
    for (let done = false; !done; ) {
      const c = bytes[p];
      if (inDouble) {
        if (c === undefined) return { error: 'Invalid argument(s): unbalanced quotes' };
        if (c === 0x5c && bytes[p + 1] === 0x78 && hexValue(bytes[p + 2] ?? 0) >= 0 && hexValue(bytes[p + 3] ?? 0) >= 0) {
          current.push(hexValue(bytes[p + 2]!) * 16 + hexValue(bytes[p + 3]!));
          p += 3;
        } else if (c === 0x5c && p + 1 < bytes.length) {
          p++;
          current.push(ESCAPES[bytes[p]!] ?? bytes[p]!);
        } else if (c === 0x22) {
          // The closing quote must be followed by a space or nothing.
          if (p + 1 < bytes.length && !isSpace(bytes[p + 1]!)) return { error: 'Invalid argument(s): a closing quote must end the argument' };
          done = true;
        } else current.push(c);
      } else if (inSingle) {
        if (c === undefined) return { error: 'Invalid argument(s): unbalanced quotes' };
        if (c === 0x5c && bytes[p + 1] === 0x27) {
          p++;
          current.push(0x27);
        } else if (c === 0x27) {
          if (p + 1 < bytes.length && !isSpace(bytes[p + 1]!)) return { error: 'Invalid argument(s): a closing quote must end the argument' };
          done = true;
        } else current.push(c);
      } else if (c === undefined || isSpace(c)) done = true;
      else if (c === 0x22) inDouble = true;
      else if (c === 0x27) inSingle = true;
      else current.push(c);
      if (p < bytes.length) p++;
    }
    args.push(Uint8Array.from(current));
  }
}
