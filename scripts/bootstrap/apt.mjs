// Debian packages the project needs: browsers and clients for tests, VM tooling, build tools.
import fs from 'node:fs';
import { run, have } from '../lib/proc.mjs';

export const APT_PACKAGES = [
  'chromium', // browser tests (Playwright drives /usr/bin/chromium)
  'redis-tools', // redis-cli and redis-benchmark: the real clients that judge compatibility
  'redis-server', // the peer in benchmarks and the baseline for basalt-bench tests
  'memcached', // the memcached peer for the memcached-protocol benchmark
  'python3-venv', // the Ansible and test-client venvs under .tools
  'build-essential', // cc for Rust build scripts
  'pkg-config',
  'debootstrap', // the Debian rootfs that local VMs boot from
  'systemd-container', // systemd-nspawn: one container per local VM
  'iproute2', // bridge and veth for the VMs' network
  'nftables', // nft: the per-instance firewall the worker keeps on the bridge (services/worker/src/firewall)
  'openssh-client', // Ansible reaches VMs over SSH
  'rsync',
  'tcl', // tclsh runs Redis' own test suite against basalt-server (engine/compat)
  'dpkg-dev', // dpkg-source: `apt-get source redis` unpacks that suite
  'prometheus', // the embedded monitoring server `npm start` runs (scripts/lib/prometheus.mjs)
];

function missing() {
  return APT_PACKAGES.filter((p) => {
    const r = run('dpkg-query', ['-W', '-f=${Status}', p]);
    return !(r.code === 0 && r.out.includes('install ok installed'));
  });
}

export async function apt() {
  const need = missing();
  if (need.length === 0) return 'ready';
  if (process.getuid?.() !== 0 || !have('apt-get')) {
    throw new Error(`missing Debian packages; install them as root: apt-get install -y ${need.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = run('apt-get', ['update', '-q'], { env });
  if (update.code !== 0) throw new Error(`apt-get update failed: ${update.out.trim().split('\n').pop()}`);
  const install = run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...need], { env });
  if (install.code !== 0) throw new Error(`apt-get install ${need.join(' ')} failed: ${install.out.trim().split('\n').pop()}`);
  if (need.includes('prometheus')) stopPackagedPrometheus();
  return `installed ${need.join(' ')}`;
}

/**
 * The package enables its own service, listening on every interface; Basalt runs its own on
 * loopback (scripts/lib/prometheus.mjs), so the packaged one is stopped and disabled, once, on a
 * host booted with systemd.
 */
function stopPackagedPrometheus() {
  if (!fs.existsSync('/run/systemd/system') || !have('systemctl')) return;
  run('systemctl', ['disable', '--now', 'prometheus.service']);
}
