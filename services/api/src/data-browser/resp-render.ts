// A reply as redis-cli prints it on a terminal (cliFormatReplyTTY in redis-cli.c): `OK`,
// `(error) ...`, `(integer) 1`, `"quoted"` bulks with sdscatrepr's escapes, `(nil)`,
// `(empty array)`, numbered elements with nested arrays indented under their number. What the
// reader cut is said where it was cut, with the true sizes.
import type { Reply } from './resp-reader.js';
import { escapeBytes } from './shown-text.js';

export function renderReply(reply: Reply, prefix = ''): string {
  switch (reply.kind) {
    case 'simple':
      return `${reply.text}\n`;
    case 'error':
      return `(error) ${reply.text}\n`;
    case 'integer':
      return `(integer) ${reply.value}\n`;
    case 'nil':
      return '(nil)\n';
    case 'bulk': {
      const cut = reply.length > reply.bytes.length ? ` ... (${reply.length} bytes in all, ${reply.bytes.length} shown)` : '';
      return `"${escapeBytes(reply.bytes)}"${cut}\n`;
    }
    case 'array': {
      if (reply.length === 0) return '(empty array)\n';
      const width = String(reply.items.length).length;
      const nested = prefix + ' '.repeat(width + 2);
      let out = '';
      reply.items.forEach((item, i) => {
        out += `${i === 0 ? '' : prefix}${String(i + 1).padStart(width)}) ${renderReply(item, nested)}`;
      });
      if (reply.length > reply.items.length) out += `${reply.items.length ? prefix : ''}... (${reply.length - reply.items.length} more of ${reply.length} not shown)\n`;
      return out;
    }
  }
}

/** The whole reply, without the last newline (as a terminal shows it). */
export function renderForCli(reply: Reply): string {
  return renderReply(reply).replace(/\n$/, '');
}
