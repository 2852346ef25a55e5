// The Debian rootfs that local VMs boot from (systemd-nspawn -b), made once with debootstrap.
// It is shared read-only by every VM; each VM keeps its own writable state beside it.
import fs from 'node:fs';
import path from 'node:path';
import { ROOTFS } from '../lib/paths.mjs';
import { run, runAsync, have, tail } from '../lib/proc.mjs';

const SUITE = 'bookworm';
// systemd and sshd so Ansible deploys to a VM exactly as to a cloud VM; python3 for Ansible.
export const ROOTFS_PACKAGES = [
  'systemd', 'systemd-sysv', 'dbus', 'openssh-server', 'python3', 'iproute2', 'iputils-ping',
  'procps', 'ca-certificates', 'sudo', 'netbase',
];
const READY_MARK = '.basalt-rootfs';

/** The Debian mirror this machine's apt already uses, so no address is written in the project. */
export function aptMirror() {
  const files = ['/etc/apt/sources.list'];
  const dir = '/etc/apt/sources.list.d';
  if (fs.existsSync(dir)) for (const f of fs.readdirSync(dir)) files.push(path.join(dir, f));
  for (const f of files) {
    if (!fs.existsSync(f)) continue;
    const text = fs.readFileSync(f, 'utf8');
    const deb822 = text.split(/\n\s*\n/).find((block) => /^Suites:.*\bbookworm\b/m.test(block) && /^URIs:/m.test(block));
    const uri = deb822?.match(/^URIs:\s*(\S+)/m)?.[1];
    if (uri && !uri.includes('security')) return uri;
    const line = text.split('\n').find((l) => /^deb\s+(\[[^\]]*\]\s+)?\S+\s+bookworm\s/.test(l));
    if (line) return line.replace(/^deb\s+(\[[^\]]*\]\s+)?/, '').split(/\s+/)[0];
  }
  return null;
}

export async function rootfs() {
  const mark = path.join(ROOTFS, READY_MARK);
  const wanted = ROOTFS_PACKAGES.join(',');
  if (fs.existsSync(mark) && fs.readFileSync(mark, 'utf8') === wanted) return 'ready';
  if (process.getuid?.() !== 0) return 'skipped: not root, so local VMs fall back to process VMs';
  if (!have('debootstrap')) throw new Error('debootstrap is missing: apt-get install -y debootstrap');
  const mirror = aptMirror();
  if (!mirror) throw new Error('no Debian bookworm mirror found in /etc/apt/sources.list*');
  // Build beside the target and rename at the end, so an interrupted run never leaves a half image.
  const building = `${ROOTFS}.building`;
  fs.rmSync(building, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(ROOTFS), { recursive: true });
  const r = await runAsync('debootstrap', ['--variant=minbase', `--include=${wanted}`, SUITE, building, mirror]);
  if (r.code !== 0) throw new Error(`debootstrap ${SUITE} failed:\n${tail(r.out)}`);
  // A VM gets its hostname, keys and network from its own state; the image holds none.
  fs.rmSync(path.join(building, 'etc', 'hostname'), { force: true });
  for (const f of fs.readdirSync(path.join(building, 'etc', 'ssh'))) {
    if (f.startsWith('ssh_host_')) fs.rmSync(path.join(building, 'etc', 'ssh', f));
  }
  fs.writeFileSync(path.join(building, 'etc', 'machine-id'), '');
  run('chroot', [building, 'apt-get', 'clean']);
  fs.rmSync(ROOTFS, { recursive: true, force: true });
  fs.renameSync(building, ROOTFS);
  fs.writeFileSync(mark, wanted);
  return 'built';
}
