// The one rule table of a tenant's network (issue 43): every connection a VM of region `local`
// may take part in is named here, and nothing else gets through the host's firewall
// (render.ts turns this table into nftables rules per instance; aws security groups say the
// same in infra/terraform/modules/aws). A new opening — a node reaching the backup store's
// endpoint with its own credentials, the API host opening the console's data browser — is
// one more named row here, never a rule written elsewhere.
import { ENGINE_PORT, ENGINE_TLS_PORT } from '../engine-settings.js';
import { ENGINE_ADMIN_PORT } from '../monitoring/monitoring-config.js';

/** The memcached text protocol's port (the engine role's engine_memcached_port). */
export const ENGINE_MEMCACHED_PORT = 11211;
export const SSH_PORT = 22;

/** The ports a customer's client uses: RESP, RESP over TLS, memcached. */
export const DATA_PORTS = [ENGINE_PORT, ENGINE_TLS_PORT, ENGINE_MEMCACHED_PORT] as const;

/**
 * Who is at one end of an opening: `nodes` is the instance's own VMs (node and floating
 * addresses), `allowlist` the instance's allowlist as kept in PostgreSQL (empty: everyone, as
 * the engine reads it), `control-plane` this host (the bridge's gateway: the worker, Ansible,
 * Prometheus, the API).
 */
export type Party = 'nodes' | 'allowlist' | 'control-plane';

export interface Opening {
  /** Names the opening in the nft rules' comments, so `nft list ruleset` says why each is there. */
  name: string;
  from: Party;
  to: Party;
  /** TCP destination ports; undefined: every port and protocol. */
  ports?: readonly number[];
  why: string;
}

export const OPENINGS: readonly Opening[] = [
  {
    name: 'own-nodes',
    from: 'nodes',
    to: 'nodes',
    why: "replication and failover between the instance's own VMs (a security group that admits itself)",
  },
  {
    name: 'clients-from-allowlist',
    from: 'allowlist',
    to: 'nodes',
    ports: DATA_PORTS,
    why: "the customer's clients (and the benchmark client, whose address the allowlist must admit) on the engine ports",
  },
  {
    name: 'control-plane-ssh',
    from: 'control-plane',
    to: 'nodes',
    ports: [SSH_PORT],
    why: 'Ansible deploys and the VM scripts check the VM over SSH',
  },
  {
    name: 'control-plane-engine',
    from: 'control-plane',
    to: 'nodes',
    ports: DATA_PORTS,
    why: "the control plane's service user (health checks, live config, benchmarks' engine control) and the console's data browser (the API logs in as that user, then AUTH as the customer's user; per instance, data_browser_enabled); the engine lets customers in directly only from the allowlist",
  },
  {
    name: 'metrics-scrape',
    from: 'control-plane',
    to: 'nodes',
    ports: [ENGINE_ADMIN_PORT],
    why: "Prometheus on this host scrapes every node's admin /metrics",
  },
  // No opening from `nodes` to `control-plane` yet: a VM reaches nothing on this host but the
  // replies of connections the host opened. The backup store's endpoint will be the first:
  // { name: 'backup-store', from: 'nodes', to: 'control-plane', ports: [<object store port>], why: ... }
];
