// Extra variables for ansible-playbook as a YAML file in which every string is tagged
// `!unsafe`. ansible-core 2.19 treats values loaded with `-e @file` as trusted templates, so
// a password like `{{ lookup('pipe', 'id') }}` would run on this host, which holds the master
// key; an `!unsafe` value is data: templates substitute it but never evaluate it.
//
// Strings are written as YAML double-quoted scalars with everything outside printable ASCII
// escaped, so the value arrives byte for byte (a raw U+2028 or U+0085 would be read as a line
// break and folded by the YAML parser).

export function unsafeVarsYaml(vars: Record<string, unknown>): string {
  return `---\n${yamlValue(vars, 'vars')}\n`;
}

function yamlValue(value: unknown, where: string): string {
  if (typeof value === 'string') return `!unsafe ${quote(value)}`;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${where}: ${value} is not a number Ansible can read`);
    return String(value);
  }
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((item, i) => yamlValue(item, `${where}[${i}]`)).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([key, v]) => `${quote(key)}: ${yamlValue(v, `${where}.${key}`)}`).join(', ')}}`;
  }
  throw new Error(`${where}: a ${typeof value} cannot be passed to Ansible`);
}

/** A YAML double-quoted scalar: printable ASCII as is, `"` and `\` escaped, the rest as \u/\U escapes. */
export function quote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code <= 0x7e) out += char;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return out + '"';
}
