// The engine on the instance's nodes through Ansible (one run directory per job), then
// the worker's own PING through the endpoint as the control plane's user (never a
// customer's: their users may be read-only, deleted, or mid-rotation).
import path from 'node:path';
import { decryptSecret, type ControlCredentialsRepository, type InstanceEndpoint, type InstancePatch, type InstanceRow, type RegionRow } from '@basalt/db';
import type { JobContext } from './context.js';
import type { OperationRun } from './operation.js';
import type { Node } from './stack.js';
import { regionSsh, sshCommonArgs, type RegionSsh } from './ssh.js';
import { runPlaybook, type PlaybookResult } from './ansible/ansible.js';
import { ENGINE_PORT, ENGINE_TLS_PORT, engineVars } from './engine-settings.js';
import { CONTROL_USER, engineUsersOf } from './engine-users.js';
import { childEnv } from './child-env.js';
import { infoAs, pingAs } from './resp.js';
import { engineVersionMismatch } from './engine-version.js';
import { requireHostRoute } from './host-route.js';
import { StepError } from './errors.js';
import { backupVars } from './backup/backup-vars.js';
import { allowlistAdmits, poolNetwork } from './ipam.js';
import { adminPortVars } from './monitoring/admin-port-vars.js';
import { DEFAULT_REPLICATION_MODE, type ReplicationMode } from '@basalt/api-client/rules';
import { assignAddress, unassignAddress } from './local-vm.js';
import { certificateNames, instanceCa, nodeCertificates, type NodeCertificates } from './instance-ca.js';

const RETRY = { attempts: 3, baseDelayMs: 2000 };

/**
 * When a deploy rotates the control plane's own engine password: every restart (the engine
 * restarts anyway), and a full deploy once the password is a day old, so that a redeploy with
 * nothing to change stays one (the role's "a second run changes nothing"); a live change never.
 */
const CONTROL_ROTATION_AFTER_SECONDS: Record<Playbook, number | undefined> = {
  'restart.yml': 0,
  'engine.yml': 86_400,
  'live-config.yml': undefined,
  // A restore deploys the role first as engine.yml does, and never right after one: no rotation.
  'restore.yml': undefined,
};

/** The step each playbook's run is, in every operation that runs it. */
export const PLAYBOOK_STEPS = { 'engine.yml': 'ansible_deploy', 'restart.yml': 'ansible_restart', 'live-config.yml': 'ansible_apply', 'restore.yml': 'restore_data' } as const;
export type Playbook = keyof typeof PLAYBOOK_STEPS;
export type PlaybookStep<P extends Playbook> = (typeof PLAYBOOK_STEPS)[P];

export async function deployEngine<P extends Playbook = 'engine.yml'>(
  ctx: JobContext,
  run: OperationRun<PlaybookStep<P>>,
  instance: InstanceRow,
  region: RegionRow,
  nodes: Node[],
  playbook: P = 'engine.yml' as P,
  /** Only these nodes (a rolling restart, node by node); every node otherwise. */
  only?: string[],
  /** The playbook's own inputs (restore.yml: what to restore). */
  inputs: Record<string, unknown> = {},
): Promise<PlaybookResult> {
  const step: PlaybookStep<P> = PLAYBOOK_STEPS[playbook];
  // Everything the run needs is made inside the step, so a retry that resumes past it (a
  // deploy an earlier attempt finished, operation-kinds.ts) prepares nothing: no password of
  // a rotation it will not deploy. A standalone TLS instance's CA is read from the run's own
  // result (clientCaCertificate), which only a run has: that deploy always runs again.
  const recallable = !(playbook === 'engine.yml' && instance.tlsEnabled && instance.architecture !== 'standard');
  const resume = recallable ? { key: only?.join(',') ?? '', recall: async (): Promise<PlaybookResult> => ({ exitCode: 0, events: [], stats: {}, changed: 0 }) } : undefined;
  return run.step(step, () => runDeploy(ctx, run, instance, region, nodes, playbook, only, inputs), RETRY, resume);
}

async function runDeploy<P extends Playbook>(
  ctx: JobContext,
  run: OperationRun<PlaybookStep<P>>,
  instance: InstanceRow,
  region: RegionRow,
  nodes: Node[],
  playbook: P,
  only: string[] | undefined,
  inputs: Record<string, unknown>,
): Promise<PlaybookResult> {
  const step: PlaybookStep<P> = PLAYBOOK_STEPS[playbook];
  const type = await ctx.catalog.getInstanceType(instance.instanceType);
  if (!type) throw new StepError('ansible', `unknown instance type ${instance.instanceType}`);
  // Ansible's SSH goes to the nodes' addresses: only where the kernel keeps it on this host.
  const targets = only ? nodes.filter((node) => only.includes(node.name)) : nodes;
  for (const node of targets) if (node.ssh_user) await onHostRoute(ctx, 'ansible', node.private_ip);
  const [users, allowlist, ssh] = await Promise.all([
    ctx.repo.listUsers(instance.id),
    ctx.repo.listAllowlist(instance.id),
    regionSsh(ctx.config.sshDir, region.id),
  ]);
  const primary = nodes.find((node) => node.role === 'primary');
  const certificates = await standardTlsCertificates(ctx, instance, targets);
  const hosts = Object.fromEntries(
    targets.map((node) => [
      node.name,
      { ...hostVars(node, ssh), ...replicaVars(instance, node, primary), ...(certificates ? { engine_tls_spec: certificates.byNode[node.name]!.spec } : {}) },
    ]),
  );
  const credentials = controlCredentials(ctx);
  // A deploy to some nodes only never rotates the control password: the others would not learn it.
  const control = await credentials.prepare(instance.id, only ? undefined : CONTROL_ROTATION_AFTER_SECONDS[playbook]);
  const replication =
    instance.architecture === 'standard'
      ? { mode: replicationModeOf(instance), password: await credentials.replicationPassword(instance.id), peers: nodes.map((node) => node.private_ip) }
      : undefined;
  const vars = engineVars({
    type,
    parameters: instance.parameters as Record<string, unknown>,
    users: engineUsersOf(users, (sealed) => decryptSecret(ctx.config.masterKey, sealed)),
    allowlist,
    control,
    features: ctx.engineFeatures,
    engineBinary: ctx.config.engineBinary,
    tls: instance.tlsEnabled,
    instanceId: instance.id,
    replication,
  });
  const backup = await backupVars(ctx, instance);
  const result = await runPlaybook({
    ansibleDir: ctx.config.ansibleDir,
    playbook,
    runDir: path.join(ctx.config.runsDir, instance.id, run.operationId),
    inventory: { all: { children: { engine: { hosts } } } },
    extraVars: { ...vars, ...adminPortVars(ctx.config.monitoring), ...issuedTlsVars(certificates), ...backup, ...inputs },
    env: childEnv(),
    onEvent: (event) => {
      if (event.event === 'runner_on_failed' || event.event === 'runner_on_unreachable') {
        void run.event('ansible', step, `${event.host}: ${event.task}: failed`, event.result).catch(() => {});
      } else if (event.event === 'runner_on_ok' && event.changed) {
        // The role is one task: its msg says what changed (files written, a restart, a reload).
        void run.event('ansible', step, `${event.host}: ${event.task}: changed: ${String(event.result?.msg ?? '')}`).catch(() => {});
      }
    },
  });
  // Every node now knows the next password: it is the only one from here on. Promoted before
  // the step is recorded finished, so a retry that resumes past the step checks with it.
  if (control.next && !only) await credentials.promote(instance.id, control.next);
  await run.event('ansible_stats', step, `${playbook}: ${result.changed} task(s) changed`, { changed: result.changed, hosts: result.stats });
  return result;
}

/**
 * A `standard` TLS instance's nodes get certificates from the instance's one CA (instance-ca.ts)
 * for their own and the floating addresses; a standalone instance's node makes its CA itself.
 */
async function standardTlsCertificates(ctx: JobContext, instance: InstanceRow, targets: Node[]): Promise<NodeCertificates | undefined> {
  if (!instance.tlsEnabled || instance.architecture !== 'standard') return undefined;
  const floating = await floatingAddressesOf(ctx, instance.id);
  return nodeCertificates(ctx, instance.id, targets, floating ? [floating.primary, floating.readonly] : []);
}

/**
 * The role's variables for certificates made here: in the vars file (0600, removed when the run
 * ends), never the inventory; every node of the instance streams over TLS, checking its
 * primary against the CA (a failover repoints replicas without a restart).
 */
function issuedTlsVars(certificates: NodeCertificates | undefined): Record<string, unknown> {
  if (!certificates) return {};
  return {
    engine_tls_ca_certificate: certificates.caCertificate,
    engine_tls_issued: Object.fromEntries(Object.entries(certificates.byNode).map(([name, issued]) => [name, { certificate: issued.certificate, key: issued.key }])),
    engine_tls_replication: true,
  };
}

/** The CA certificate clients of the instance check it with: the instance's own CA (standard), or the one its node made (read from the deploy). */
export async function clientCaCertificate(ctx: JobContext, instance: InstanceRow, deployed: PlaybookResult): Promise<string | undefined> {
  if (!instance.tlsEnabled) return undefined;
  if (instance.architecture === 'standard') return (await instanceCa(ctx, instance.id)).certificate;
  return caCertificateOf(deployed);
}

function controlCredentials(ctx: JobContext): ControlCredentialsRepository {
  return ctx.repo.controlCredentials(ctx.config.masterKey);
}

/**
 * How Ansible reaches a node: SSH as its user for a VM; the local connection for a
 * process VM (no SSH user), whose engine runs supervised in the VM's directory.
 */
function hostVars(node: Node, ssh: RegionSsh): Record<string, unknown> {
  // The names the node's TLS certificate holds: its addresses and loopback (health check).
  const tlsVars = { engine_tls_sans: certificateNames([node.private_ip, node.public_ip]) };
  if (!node.ssh_user) {
    return {
      ...tlsVars,
      ansible_connection: 'local',
      ansible_python_interpreter: '{{ ansible_playbook_python }}',
      engine_supervisor: 'process',
      engine_process_root: path.dirname(node.data_dir),
      engine_bind: node.private_ip,
      engine_admin_bind: node.private_ip,
      engine_data_dir: node.data_dir,
    };
  }
  return {
    ...tlsVars,
    ansible_host: node.private_ip,
    ansible_user: node.ssh_user,
    ansible_ssh_private_key_file: ssh.privateKeyFile,
    ansible_ssh_common_args: sshCommonArgs(ssh),
    engine_data_dir: node.data_dir,
    // The admin port (metrics) listens on the node's own address, where Prometheus reaches it.
    engine_admin_bind: node.private_ip,
  };
}

/**
 * Where a replica of a `standard` instance streams from: its primary's address (never the
 * floating one, which moves). The config records it for a restart; a failover repoints the
 * running engines with REPLICAOF and the next deploy writes the file again.
 */
function replicaVars(instance: InstanceRow, node: Node, primary: Node | undefined): Record<string, unknown> {
  if (instance.architecture !== 'standard' || node.role !== 'replica') return { engine_replicaof: '' };
  if (!primary) throw new StepError('ansible', `instance ${instance.id} has replicas but no primary node`);
  // With TLS the plaintext port is off: replicas stream from the TLS one.
  return { engine_replicaof: `${primary.private_ip} ${instance.tlsEnabled ? ENGINE_TLS_PORT : ENGINE_PORT}` };
}

/** The replication mode of a `standard` instance (the API stores it; sync when absent). */
export function replicationModeOf(instance: InstanceRow): ReplicationMode {
  const mode = (instance.parameters as Record<string, unknown>).replication_mode;
  return mode === 'async' ? 'async' : DEFAULT_REPLICATION_MODE;
}

/** The role's one task (infra/ansible/roles/engine/tasks/main.yml), whose stdout is a standalone
 * TLS instance's CA certificate (public); Ansible prefixes `engine : `. */
const CA_TASK = 'Keep the engine as the control plane wants it';

/**
 * The CA certificate a standalone instance's node made, as the deploy printed it (read from
 * the events); several distinct ones would be joined as one PEM bundle.
 */
export function caCertificateOf(result: PlaybookResult): string | undefined {
  const pems = result.events
    .filter((e) => e.event === 'runner_on_ok' && (e.task === CA_TASK || e.task?.endsWith(` : ${CA_TASK}`)) && typeof e.result?.stdout === 'string')
    .map((e) => String(e.result?.stdout).trim());
  const unique = [...new Set(pems)].filter((pem) => pem.includes('BEGIN CERTIFICATE'));
  return unique.length ? unique.join('\n') + '\n' : undefined;
}

/** The CA certificate stored with the instance's endpoints by the last create or modify. */
export function storedCaCertificate(instance: InstanceRow): string | undefined {
  const endpoints = (Array.isArray(instance.endpoints) ? instance.endpoints : []) as Partial<Endpoint>[];
  return endpoints.find((e) => typeof e.ca_certificate === 'string')?.ca_certificate;
}

/**
 * Connects to every node's endpoint as the control plane's user and sends PING. The engine
 * lets that one user in from outside the customer's allowlist (allowlist-exempt-user); an
 * engine without it refuses the control plane's address when the allowlist leaves it out,
 * and then the role's PING on the VM (loopback, always allowed) is the check.
 */
export async function checkEndpoints(
  ctx: JobContext,
  run: OperationRun<'health_check'>,
  instance: InstanceRow,
  region: RegionRow,
  nodes: Node[],
  caCertificate?: string,
): Promise<void> {
  const secure = instance.tlsEnabled ? caCertificate ?? storedCaCertificate(instance) : undefined;
  if (instance.tlsEnabled && !secure) throw new StepError('health_check', 'the instance has TLS but no CA certificate was found (deploy output or stored endpoints)');
  const port = secure ? ENGINE_TLS_PORT : ENGINE_PORT;
  await run.step(
    'health_check',
    async () => {
      if (ctx.engineFeatures.has('allowlist') && !ctx.engineFeatures.has('allowlist-exempt-user')) {
        const cidrs = (await ctx.repo.listAllowlist(instance.id)).map((entry) => entry.cidr);
        const controlPlane = poolNetwork(region.addressPool).gateway;
        if (!allowlistAdmits(cidrs, controlPlane)) {
          await run.event('notice', 'health_check', `the allowlist leaves out the control plane (${controlPlane}); checked by PING on the VM only`);
          return;
        }
      }
      const control = await controlCredentials(ctx).prepare(instance.id);
      for (const node of nodes) {
        await onHostRoute(ctx, 'health_check', node.public_ip);
        const tls = secure ? { caPem: secure } : undefined;
        let reported: string | undefined;
        try {
          await pingAs(node.public_ip, port, CONTROL_USER, control.current, tls);
          reported = (await infoAs(node.public_ip, port, CONTROL_USER, control.current, 'server', tls)).basalt_version;
        } catch (error) {
          throw new StepError('health_check', `${node.public_ip}:${port}: ${(error as Error).message}`, null, '', true);
        }
        const mismatch = engineVersionMismatch(instance.engineVersion, reported);
        if (mismatch) throw new StepError('health_check', `${node.public_ip}:${port}: ${mismatch}`);
      }
    },
    // Up to ~30 s: an engine restarted by the deploy on a loaded host (2 shared cores) can take
    // longer than 7.5 s to listen again; the fresh-clone run failed creates at 7.5 s.
    { attempts: 7, baseDelayMs: 500 },
  );
}

export type Endpoint = InstanceEndpoint;

/** The floating addresses of a `standard` instance's endpoints (none for `standalone`). */
export interface FloatingAddresses {
  primary: string;
  readonly: string;
}

/**
 * The instance's endpoints. `standalone`: its one node's address is the primary endpoint.
 * `standard`: the floating addresses, the primary one held by the primary node and the
 * read-only one by a replica. With a CA certificate the endpoints are the TLS port (the
 * plaintext one is off).
 */
export function endpointsOf(nodes: Node[], caCertificate?: string, floating?: FloatingAddresses): Endpoint[] {
  const port = caCertificate ? ENGINE_TLS_PORT : ENGINE_PORT;
  const common = { port, tls: caCertificate !== undefined, ...(caCertificate ? { ca_certificate: caCertificate } : {}) };
  if (!floating) {
    return nodes.map((node) => ({
      role: 'primary' as const,
      type: node.public_ip === node.private_ip ? ('private' as const) : ('public' as const),
      host: node.public_ip,
      node: node.name,
      ...common,
    }));
  }
  const primary = nodes.find((node) => node.role === 'primary');
  const replica = readonlyHolder(nodes);
  if (!primary || !replica) throw new StepError('health_check', 'a standard instance needs a primary and a running replica');
  return [
    { role: 'primary', type: 'private', host: floating.primary, node: primary.name, ...common },
    { role: 'readonly', type: 'private', host: floating.readonly, node: replica.name, ...common },
  ];
}

/** The replica that holds the read-only address: the first running one. */
export function readonlyHolder(nodes: Node[]): Node | undefined {
  return nodes.find((node) => node.role === 'replica' && node.status === 'running') ?? nodes.find((node) => node.role === 'replica');
}

/** A step's failure, without connecting, when `ip` would leave this host (host-route.ts). */
async function onHostRoute(ctx: JobContext, step: string, ip: string): Promise<void> {
  try {
    await requireHostRoute(ip, ctx.config.bridge);
  } catch (error) {
    throw new StepError(step, (error as Error).message);
  }
}

/**
 * A full deploy of the engine on the nodes, then the check of every endpoint; returns what
 * the instance row holds once both succeeded (provision and modify end with it). A
 * `standard` instance's floating addresses go onto the primary and a replica.
 */
export async function deployAndCheck(ctx: JobContext, run: OperationRun<'ansible_deploy' | 'health_check' | 'floating_addresses'>, instance: InstanceRow, region: RegionRow, nodes: Node[]): Promise<InstancePatch> {
  const deployed = await deployEngine(ctx, run, instance, region, nodes);
  const ca = await clientCaCertificate(ctx, instance, deployed);
  await checkEndpoints(ctx, run, instance, region, nodes, ca);
  const running = nodes.map((node) => ({ ...node, status: 'running' as const }));
  const floating = instance.architecture === 'standard' ? await placeFloatingAddresses(ctx, run, instance, region, running) : undefined;
  return { status: 'running', health: 'healthy', fault: null, nodes: running, endpoints: endpointsOf(running, ca, floating) };
}

/**
 * Puts `address` on `holder` after taking it off every other node of the instance: one address
 * is never on two nodes (the caller holds the instance's lease, so no job moves it meanwhile).
 */
export async function holdFloatingAddress(ctx: JobContext, region: RegionRow, nodes: Node[], address: string, holder: Node): Promise<void> {
  for (const node of nodes) if (node.name !== holder.name) await unassignAddress(ctx, node, address, region.addressPool);
  await assignAddress(ctx, holder, address, region.addressPool);
}

/** The instance's floating addresses (address_allocations), or undefined for `standalone`. */
export async function floatingAddressesOf(ctx: JobContext, instanceId: string): Promise<FloatingAddresses | undefined> {
  const held = await ctx.repo.listAddresses(instanceId);
  const primary = held.find((a) => a.kind === 'primary_endpoint')?.address;
  const readonly = held.find((a) => a.kind === 'readonly_endpoint')?.address;
  return primary && readonly ? { primary, readonly } : undefined;
}

/**
 * Puts the primary floating address on the primary node and the read-only one on a replica,
 * and takes them off every other node (a deploy after a failover finds them anywhere).
 */
async function placeFloatingAddresses(ctx: JobContext, run: OperationRun<'floating_addresses'>, instance: InstanceRow, region: RegionRow, nodes: Node[]): Promise<FloatingAddresses> {
  return run.step('floating_addresses', async () => {
    const floating = await floatingAddressesOf(ctx, instance.id);
    if (!floating) throw new StepError('floating_addresses', `instance ${instance.id} holds no floating addresses`);
    const primary = nodes.find((node) => node.role === 'primary');
    const replica = readonlyHolder(nodes);
    if (!primary || !replica) throw new StepError('floating_addresses', 'a standard instance needs a primary and a replica');
    await holdFloatingAddress(ctx, region, nodes, floating.primary, primary);
    await holdFloatingAddress(ctx, region, nodes, floating.readonly, replica);
    await run.event('floating_addresses', 'floating_addresses', `primary endpoint ${floating.primary} on ${primary.name}; read-only endpoint ${floating.readonly} on ${replica.name}`);
    return floating;
  });
}
