// Allowlist rules shared by instance creation and the allowlist routes.
import type { AllowlistEntryInput } from '@basalt/db';
import { Invalid } from '../common/errors.js';
import { parseCidr } from '@basalt/api-client/rules';
import type { AllowlistEntryInputDto } from './allowlist.dto.js';

/** Validates and normalises CIDRs; a CIDR given twice keeps its last description. */
export function normaliseAllowlist(entries: AllowlistEntryInputDto[], field = 'allowlist'): AllowlistEntryInput[] {
  const problems: { field: string; problems: string[] }[] = [];
  const byCidr = new Map<string, AllowlistEntryInput>();
  entries.forEach((entry, index) => {
    const parsed = parseCidr(entry.cidr);
    if ('error' in parsed) problems.push({ field: `${field}.${index}.cidr`, problems: [parsed.error] });
    else byCidr.set(parsed.cidr, { cidr: parsed.cidr, description: entry.description ?? '' });
  });
  if (problems.length) throw new Invalid(`Invalid CIDR in ${field}`, problems);
  return [...byCidr.values()];
}

