#!/usr/bin/env bash
# Create and boot one VM of the `local` region: a systemd-nspawn container booted from the
# read-only image through an overlay kept in $VM_DIR, with its own network namespace on
# the project bridge, cgroup limits, and sshd with the region's key. Idempotent: a VM that
# is already running is left as it is. Returns when the VM accepts SSH connections.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cgroup.sh"
. "$here/vm-lib.sh"

: "${VM_NAME:?}" "${VM_DIR:?}" "${VM_IMAGE:?}" "${VM_IP:?}" "${VM_PREFIX_LENGTH:?}" "${VM_GATEWAY:?}"
: "${VM_BRIDGE:?}" "${VM_CPUS:?}" "${VM_MEMORY_MB:?}" "${VM_DISK_GB:?}" "${VM_SSH_PUBKEY:?}" "${VM_KNOWN_HOSTS:?}"
boot_timeout=${VM_BOOT_TIMEOUT:-90}

[ -d "$VM_IMAGE/etc" ] || fail "no VM image at $VM_IMAGE (run the bootstrap)"
[ -f "$VM_SSH_PUBKEY" ] || fail "no SSH public key at $VM_SSH_PUBKEY"
command -v systemd-nspawn >/dev/null || fail "systemd-nspawn is not installed"

if vm_running; then
  echo "VM $VM_NAME is already running (pid $(cat "$VM_DIR/nspawn.pid"))"
  exit 0
fi

bridge_up
# The pool belongs to one control plane; a second one (another database) on this host could
# hand out the same address. Refuse rather than put two VMs on one address.
# Another control plane on this host (a second database) may boot a VM on the same address
# at the same moment: one boot per address at a time (the lock is held until the VM answers),
# so the second one finds the address answering.
exec 8>"/run/lock/basalt-vm-$VM_IP.lock"
flock 8
address_answers && fail "address $VM_IP already answers on the bridge: in use by another VM"
# From here on the VM is ours: a create that fails stops and removes it again, because
# Terraform marks the resource tainted and does not run destroy-time provisioners of a
# tainted resource (the delete would leave the VM running).
remove_on_failure() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    echo "removing VM $VM_NAME after the failed create" >&2
    VM_SHUTDOWN_TIMEOUT=10 "$here/vm-destroy.sh" >&2 || true
  fi
}
trap remove_on_failure EXIT
mkdir -p "$VM_DIR/root"
echo "$VM_IP" > "$VM_DIR/address"
echo "$(vm_machine_name)" > "$VM_DIR/machine"
disk_create "$VM_DISK_GB"
[ -f "$VM_DIR/host_key.pub" ] || with_vm_root provision_root
pin_host_key

vm_boot "$boot_timeout"
