// Allowlist rules shared by instance creation and the allowlist routes.
import type { AllowlistEntryInput, InstanceRow } from '@basalt/db';
import { Invalid } from '../common/errors.js';
import { normaliseCidr } from '../common/validators.js';
import type { AllowlistEntryInputDto } from './allowlist.dto.js';

/** Validates and normalises CIDRs; a CIDR given twice keeps its last description. */
export function normaliseAllowlist(entries: AllowlistEntryInputDto[], field = 'allowlist'): AllowlistEntryInput[] {
  const problems: { field: string; problems: string[] }[] = [];
  const byCidr = new Map<string, AllowlistEntryInput>();
  entries.forEach((entry, index) => {
    const cidr = normaliseCidr(entry.cidr);
    if (!cidr) problems.push({ field: `${field}.${index}.cidr`, problems: [`${JSON.stringify(entry.cidr)} is not an IPv4/IPv6 CIDR with zero host bits`] });
    else byCidr.set(cidr, { cidr, description: entry.description ?? '' });
  });
  if (problems.length) throw new Invalid(`Invalid CIDR in ${field}`, problems);
  return [...byCidr.values()];
}

/** States in which the engine is (or will be) deployed and can take live changes. */
export const LIVE = new Set<InstanceRow['status']>(['running', 'modifying', 'restarting', 'error']);

