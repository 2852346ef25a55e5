#!/usr/bin/env bash
# Destroy one VM of the `local` region: power it off (cleanly, then by force), unmount and
# remove its state, its cgroup and its host key. Idempotent: a VM already gone is fine.
# The address goes back to the region's pool in the control plane once this succeeds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cgroup.sh"
. "$here/vm-lib.sh"

: "${VM_DIR:?}" "${VM_IP:?}" "${VM_KNOWN_HOSTS:?}"
VM_NAME=$(basename "$VM_DIR")
shutdown_timeout=${VM_SHUTDOWN_TIMEOUT:-20}

vm_stop "$shutdown_timeout"
# A VM made before its mounts moved into a namespace of its own has them in the host's.
for mount in "$VM_DIR/root" "$VM_DIR/disk"; do
  if mountpoint -q "$mount" 2>/dev/null; then umount "$mount" || umount -l "$mount"; fi
done
# The VM's mounts lived in its namespace and are gone with it, so the disk is free.
disk_released || echo "warning: the disk image of VM $VM_NAME is still in use; its space is freed when that ends" >&2
cgroup_remove "$(vm_machine_name)"
rm -rf "$VM_DIR"
if [ -f "$VM_KNOWN_HOSTS" ]; then
  ( flock 9; forget_host_key ) 9>"$VM_KNOWN_HOSTS.lock"
fi
echo "VM $VM_NAME at $VM_IP is destroyed"
