// nftables rules of one instance's network, rendered from the rule table (openings.ts) and
// validated values only. Every string a customer typed (an allowlist entry) reaches nft as
// the canonical form of a parsed CIDR, never as text of its own: a value that does not parse
// is refused here, so `10.0.0.0/8; flush ruleset` can never become nft code. Names (instance,
// users) are never rendered; the tables are named by the instance's id, checked as a UUID.
//
// Each instance has two tables of its own, `bridge basalt_<id>` and `inet basalt_<id>`, so
// applying or removing one instance touches nothing else on the host (no other instance's
// rules, no table of another tool): several base chains on one hook all see a packet, and a
// drop in any of them wins. Each table matches only packets from or to its instance's
// addresses, so VMs it does not know (another control plane's) pass untouched.
//
// - bridge forward: VM <-> VM and client namespace <-> VM on the one bridge. The bridge family
//   has no connection tracking on this kernel (nf_conntrack_bridge is not there), so replies
//   are matched without state: from an engine port, never a bare SYN.
// - bridge output: what this host (the control plane) sends to a VM.
// - inet input: what a VM sends to this host: replies only, plus openings named to the host.
// - inet forward: nothing from a VM leaves the machine, nothing routed in reaches a VM.
//
// Applying is one nft transaction that creates, deletes and defines both tables, so a rerun
// replaces them whole (idempotent) and a killed worker leaves either the old rules or the new.
import { normaliseCidr } from '@basalt/api-client/rules';
import { OPENINGS, type Opening } from './openings.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const INTERFACE = /^[A-Za-z0-9_.-]{1,15}$/;
const TABLE_PREFIX = 'basalt_';

export interface FirewallInput {
  instanceId: string;
  /** The project bridge (config.bridge). */
  bridge: string;
  /** Every address the instance holds: its nodes' and its floating endpoints'. */
  addresses: string[];
  /** The instance's allowlist as kept in PostgreSQL; empty admits everyone, as in the engine. */
  allowlist: string[];
  openings?: readonly Opening[];
}

export class FirewallInputError extends Error {}

/** `basalt_<32 hex digits>`: the name of both of an instance's tables. */
export function tableName(instanceId: string): string {
  if (!UUID.test(instanceId)) throw new FirewallInputError(`not an instance id: ${JSON.stringify(instanceId)}`);
  return TABLE_PREFIX + instanceId.replace(/-/g, '');
}

/** The instance id a Basalt table is named for, or undefined for any other table. */
export function instanceIdOfTable(name: string): string | undefined {
  const match = /^basalt_([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/.exec(name);
  return match ? match.slice(1).join('-') : undefined;
}

/**
 * The allowlist's IPv4 networks in canonical form. IPv6 entries are left out: the VMs have
 * IPv4 only. An entry that does not parse is refused, not skipped: the API validated every
 * entry, so one that fails here is a bug or a tampered row, and guessing would open or close
 * the wrong network.
 */
export function allowlistNetworks(allowlist: string[]): string[] {
  return allowlist.flatMap((entry) => {
    const cidr = normaliseCidr(entry);
    if (!cidr) throw new FirewallInputError(`allowlist entry ${JSON.stringify(entry)} is not a CIDR`);
    const [base, prefix] = cidr.split('/') as [string, string];
    return IPV4.test(base) && /^\d{1,2}$/.test(prefix) && Number(prefix) <= 32 ? [`${base}/${prefix}`] : [];
  });
}

function checkedAddresses(addresses: string[]): string[] {
  for (const address of addresses) {
    if (!IPV4.test(address)) throw new FirewallInputError(`instance address ${JSON.stringify(address)} is not an IPv4 address`);
  }
  return [...new Set(addresses)];
}

function ports(list: readonly number[]): string {
  for (const port of list) if (!Number.isInteger(port) || port < 1 || port > 65535) throw new FirewallInputError(`not a port: ${port}`);
  return `{ ${list.join(', ')} }`;
}

/** The rule's comment: only names from the rule table, which hold no quote. */
function comment(text: string): string {
  if (!/^[A-Za-z0-9 ():,_.-]+$/.test(text)) throw new FirewallInputError(`not a rule comment: ${JSON.stringify(text)}`);
  return `comment "${text}"`;
}

interface Chains {
  forward: string[];
  output: string[];
  input: string[];
}

/** Where each opening lands; `@nodes` and `@allowlist` are the table's sets. */
function openingRules(opening: Opening, admitsEveryone: boolean, admitsNoOne: boolean, chains: Chains): void {
  const dport = opening.ports ? ` tcp dport ${ports(opening.ports)}` : '';
  const sport = opening.ports ? ` tcp sport ${ports(opening.ports)}` : '';
  const named = comment(opening.name);
  const replies = comment(`${opening.name} (replies)`);
  const key = `${opening.from}->${opening.to}`;
  switch (key) {
    case 'nodes->nodes':
      chains.forward.push(`ip saddr @nodes ip daddr @nodes${dport} accept ${named}`);
      if (opening.ports) chains.forward.push(`ip saddr @nodes ip daddr @nodes${sport} accept ${replies}`);
      return;
    case 'allowlist->nodes': {
      if (admitsNoOne) return;
      const from = admitsEveryone ? '' : ' ip saddr @allowlist';
      const to = admitsEveryone ? '' : ' ip daddr @allowlist';
      chains.forward.push(`ip daddr @nodes${from}${dport} accept ${named}`);
      // No bare SYN: a VM answers on these ports, it never opens a connection from them.
      chains.forward.push(`ip saddr @nodes${to}${sport} tcp flags & (syn | ack) != syn accept ${replies}`);
      return;
    }
    case 'control-plane->nodes':
      chains.output.push(`ip daddr @nodes${dport} accept ${named}`);
      return;
    case 'nodes->control-plane':
      chains.input.push(`ip saddr @nodes${dport} accept ${named}`);
      chains.output.push(`ip daddr @nodes${sport} accept ${replies}`);
      return;
    default:
      throw new FirewallInputError(`opening ${opening.name}: ${key} is not a kind the renderer knows`);
  }
}

function set(name: string, type: string, flags: string, elements: string[]): string[] {
  return [
    `  set ${name} {`,
    `    type ${type}`,
    ...(flags ? [`    flags ${flags}`, '    auto-merge'] : []),
    ...(elements.length ? [`    elements = { ${elements.join(', ')} }`] : []),
    '  }',
  ];
}

function chain(name: string, hook: string, rules: string[]): string[] {
  return [`  chain ${name} {`, `    type filter hook ${hook} priority 0; policy accept;`, ...rules.map((r) => `    ${r}`), '  }'];
}

/** The nft script that replaces the instance's two tables with its rules now. */
export function renderApply(input: FirewallInput): string {
  const table = tableName(input.instanceId);
  if (!INTERFACE.test(input.bridge)) throw new FirewallInputError(`not an interface name: ${JSON.stringify(input.bridge)}`);
  const addresses = checkedAddresses(input.addresses);
  const networks = allowlistNetworks(input.allowlist);
  const admitsEveryone = input.allowlist.length === 0;
  // An allowlist of IPv6 networks only admits no IPv4 client: not everyone.
  const admitsNoOne = !admitsEveryone && networks.length === 0;
  const chains: Chains = { forward: [], output: [], input: [] };
  for (const opening of input.openings ?? OPENINGS) openingRules(opening, admitsEveryone, admitsNoOne, chains);
  const bridge = `"${input.bridge}"`;

  const forward = [...chains.forward, `ip saddr @nodes drop ${comment('egress: nothing else')}`, `ip daddr @nodes drop ${comment('ingress: nothing else')}`];
  const output = [...chains.output, `ip daddr @nodes drop ${comment('from the control plane: nothing else')}`];
  const hostInput = [
    `ip saddr @nodes ct state established,related accept ${comment('replies to the control plane')}`,
    ...chains.input,
    `ip saddr @nodes drop ${comment('to the host: nothing else')}`,
  ];
  const routed = [
    `ip saddr @nodes oifname != ${bridge} drop ${comment('not off the machine')}`,
    `ip daddr @nodes iifname != ${bridge} drop ${comment('nothing routed in')}`,
  ];
  return [
    ...replaceTable('bridge', table),
    `table bridge ${table} {`,
    ...set('nodes', 'ipv4_addr', '', addresses),
    ...set('allowlist', 'ipv4_addr', 'interval', networks),
    ...chain('forward', 'forward', forward),
    ...chain('output', 'output', output),
    '}',
    ...replaceTable('inet', table),
    `table inet ${table} {`,
    ...set('nodes', 'ipv4_addr', '', addresses),
    ...chain('input', 'input', hostInput),
    ...chain('forward', 'forward', routed),
    '}',
    '',
  ].join('\n');
}

/** Creating before deleting makes the delete succeed whether or not the table was there. */
function replaceTable(family: string, table: string): string[] {
  return [`table ${family} ${table} {}`, `delete table ${family} ${table}`];
}

/** The nft script that removes the instance's tables (nothing to do when they are gone). */
export function renderRemove(instanceId: string): string {
  const table = tableName(instanceId);
  return [...replaceTable('bridge', table), ...replaceTable('inet', table), ''].join('\n');
}

/**
 * The nft script that takes `addresses` out of another instance's table: a table left by an
 * instance whose control plane went away without deleting it (a test stack dropped with its
 * database) must not wall in a VM that now holds one of its addresses.
 */
export function renderReleaseAddresses(family: 'bridge' | 'inet', table: string, addresses: string[]): string {
  if (!instanceIdOfTable(table)) throw new FirewallInputError(`not a Basalt table: ${JSON.stringify(table)}`);
  return `delete element ${family} ${table} nodes { ${checkedAddresses(addresses).join(', ')} }\n`;
}
