// Each edit the browser offers, as the one command it runs: the fields it needs and the RESP
// arguments it sends (every customer string is one argument of its own). The audit row names
// the edit's kind only, never the key's value.
import { Invalid } from '../common/errors.js';
import type { DataEditDto, DataEditOp } from './data-browser.dto.js';
import type { Argument } from './engine-session.js';

type Needed = 'value' | 'field' | 'member' | 'score' | 'index' | 'id' | 'fields';

interface EditRule {
  needs: Needed[];
  args(edit: DataEditDto): Argument[];
}

export const EDITS: Record<DataEditOp, EditRule> = {
  // KEEPTTL: editing a string leaves its expiry as it was.
  set: { needs: ['value'], args: (e) => ['SET', e.key, e.value!, 'KEEPTTL'] },
  hset: { needs: ['field', 'value'], args: (e) => ['HSET', e.key, e.field!, e.value!] },
  hdel: { needs: ['field'], args: (e) => ['HDEL', e.key, e.field!] },
  lset: { needs: ['index', 'value'], args: (e) => ['LSET', e.key, String(e.index), e.value!] },
  rpush: { needs: ['value'], args: (e) => ['RPUSH', e.key, e.value!] },
  lrem: { needs: ['value'], args: (e) => ['LREM', e.key, '1', e.value!] },
  sadd: { needs: ['member'], args: (e) => ['SADD', e.key, e.member!] },
  srem: { needs: ['member'], args: (e) => ['SREM', e.key, e.member!] },
  // A score as JavaScript prints a finite number (1e+21 included) is one the engine parses.
  zadd: { needs: ['member', 'score'], args: (e) => ['ZADD', e.key, String(e.score), e.member!] },
  zrem: { needs: ['member'], args: (e) => ['ZREM', e.key, e.member!] },
  xadd: { needs: ['fields'], args: (e) => ['XADD', e.key, '*', ...e.fields!.flatMap((f) => [f.field, f.value])] },
  xdel: { needs: ['id'], args: (e) => ['XDEL', e.key, e.id!] },
};

const ALL: Needed[] = ['value', 'field', 'member', 'score', 'index', 'id', 'fields'];

/** The edit's command, or 400 naming the fields it lacks or does not take. */
export function editCommand(edit: DataEditDto): Argument[] {
  const rule = EDITS[edit.op];
  const missing = rule.needs.filter((f) => edit[f] === undefined);
  const extra = ALL.filter((f) => !rule.needs.includes(f) && edit[f] !== undefined);
  if (missing.length || extra.length) {
    const problems = [...missing.map((f) => ({ field: f, problems: [`${edit.op} needs ${f}`] })), ...extra.map((f) => ({ field: f, problems: [`${edit.op} takes no ${f}`] }))];
    throw new Invalid(`${edit.op} takes ${rule.needs.join(', ')}`, problems);
  }
  return rule.args(edit);
}
