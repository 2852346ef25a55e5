// One page of a key's value, read with bounded commands only: GETRANGE for a string's first
// bytes, HSCAN/SSCAN with COUNT, LRANGE/ZRANGE over one page of offsets, XRANGE with COUNT.
// Never HGETALL, SMEMBERS or a whole GET: a value of any size costs one page.
import { DATA_PAGE_DEFAULT, DATA_VALUE_BYTES_SHOWN, type DataKeyType } from '@basalt/api-client/rules';
import type { DataElementDto, DataFieldDto, DataStreamEntryDto, DataValueDto } from './data-browser.dto.js';
import type { EngineSession } from './engine-session.js';
import { engineError, integerOf } from './replies.js';
import type { Reply } from './resp-reader.js';
import { shownText, textOf, type ShownText } from './shown-text.js';

const EMPTY: ShownText = { text: '', length: 0, truncated: false, binary: false };
const text = (reply: Reply | undefined) => textOf(reply) ?? EMPTY;
const itemsOf = (reply: Reply | undefined): Reply[] => (reply?.kind === 'array' ? reply.items : []);

/** Pairs [a, b, a, b, ...] (HSCAN's fields and values, a stream entry's fields). */
function fieldPairs(items: Reply[]): DataFieldDto[] {
  const out: DataFieldDto[] = [];
  for (let i = 0; i + 1 < items.length; i += 2) out.push({ field: text(items[i]), value: text(items[i + 1]) });
  return out;
}

/** SCAN-style [cursor, items] replies: the next cursor, null once the scan is complete. */
function scanPage(reply: Reply): { cursor: string | null; items: Reply[] } {
  const [cursor, items] = itemsOf(reply);
  const next = cursor?.kind === 'bulk' ? cursor.bytes.toString('latin1') : '0';
  return { cursor: next === '0' ? null : next, items: itemsOf(items) };
}

type Page = Pick<DataValueDto, 'length' | 'string' | 'fields' | 'elements' | 'entries' | 'next_cursor'>;

export async function readValuePage(session: EngineSession, key: string, type: DataKeyType, cursor: string | undefined, count = DATA_PAGE_DEFAULT): Promise<Page> {
  const n = String(count);
  const offset = /^[0-9]+$/.test(cursor ?? '') ? Number(cursor) : 0;
  const run = async (commands: string[][]) => {
    const replies = await session.pipeline(commands);
    const refused = replies.find((r) => r.kind === 'error');
    if (refused) throw engineError(refused);
    return replies;
  };
  switch (type) {
    case 'string': {
      const [length, head] = await run([['STRLEN', key], ['GETRANGE', key, '0', String(DATA_VALUE_BYTES_SHOWN - 1)]]);
      const bytes = head?.kind === 'bulk' ? head.bytes : Buffer.alloc(0);
      return { length: integerOf(length), string: shownText(bytes, integerOf(length)), next_cursor: null };
    }
    case 'hash': {
      const [length, page] = await run([['HLEN', key], ['HSCAN', key, cursor ?? '0', 'COUNT', n]]);
      const { cursor: next, items } = scanPage(page!);
      return { length: integerOf(length), fields: fieldPairs(items), next_cursor: next };
    }
    case 'set': {
      const [length, page] = await run([['SCARD', key], ['SSCAN', key, cursor ?? '0', 'COUNT', n]]);
      const { cursor: next, items } = scanPage(page!);
      return { length: integerOf(length), elements: items.map((m) => ({ value: text(m) })), next_cursor: next };
    }
    case 'list': {
      const [length, page] = await run([['LLEN', key], ['LRANGE', key, String(offset), String(offset + count - 1)]]);
      const elements: DataElementDto[] = itemsOf(page).map((v, i) => ({ index: offset + i, value: text(v) }));
      const total = integerOf(length);
      return { length: total, elements, next_cursor: offset + count < total ? String(offset + count) : null };
    }
    case 'zset': {
      const [length, page] = await run([['ZCARD', key], ['ZRANGE', key, String(offset), String(offset + count - 1), 'WITHSCORES']]);
      const items = itemsOf(page);
      const elements: DataElementDto[] = [];
      for (let i = 0; i + 1 < items.length; i += 2) elements.push({ value: text(items[i]), score: text(items[i + 1]).text });
      const total = integerOf(length);
      return { length: total, elements, next_cursor: offset + count < total ? String(offset + count) : null };
    }
    case 'stream': {
      const start = cursor && cursor.includes('-') ? cursor : '-';
      const [length, page] = await run([['XLEN', key], ['XRANGE', key, start, '+', 'COUNT', n]]);
      const entries: DataStreamEntryDto[] = itemsOf(page).map((entry) => {
        const [id, fields] = itemsOf(entry);
        return { id: text(id).text, fields: fieldPairs(itemsOf(fields)) };
      });
      const last = entries[entries.length - 1];
      return { length: integerOf(length), entries, next_cursor: entries.length === count && last ? `(${last.id}` : null };
    }
  }
}
