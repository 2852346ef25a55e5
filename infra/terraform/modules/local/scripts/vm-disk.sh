#!/usr/bin/env bash
# Grow the disk of one VM of the `local` region to VM_DISK_GB GiB (a larger disk_gib). The
# filesystem grows offline, so the VM is powered off, its disk grown, and the VM booted
# again from the same disk: its data stays. A disk never shrinks; at the same size it only
# makes sure the VM runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cgroup.sh"
. "$here/vm-lib.sh"

: "${VM_NAME:?}" "${VM_DIR:?}" "${VM_IMAGE:?}" "${VM_IP:?}" "${VM_BRIDGE:?}" "${VM_CPUS:?}" "${VM_MEMORY_MB:?}" "${VM_DISK_GB:?}"
[ -f "$VM_DIR/machine" ] || fail "no VM at $VM_DIR"
if disk_needs_growing "$VM_DISK_GB"; then
  vm_stop "${VM_SHUTDOWN_TIMEOUT:-60}"
  disk_grow_offline "$VM_DISK_GB"
fi
# A run that grew the disk and then failed to boot the VM is finished by the next one.
vm_running || vm_boot "${VM_BOOT_TIMEOUT:-90}"
echo "VM $VM_NAME: disk ${VM_DISK_GB} GiB"
