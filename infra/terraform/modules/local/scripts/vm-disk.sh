#!/usr/bin/env bash
# Grow the disk of one VM of the `local` region to VM_DISK_GB GiB (a larger disk_gib). The
# filesystem grows offline, so the VM is powered off, its disk grown, and the VM booted
# again from the same disk: its data stays. A disk never shrinks; the same size is a no-op.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cgroup.sh"
. "$here/vm-lib.sh"

: "${VM_NAME:?}" "${VM_DIR:?}" "${VM_IMAGE:?}" "${VM_IP:?}" "${VM_BRIDGE:?}" "${VM_CPUS:?}" "${VM_MEMORY_MB:?}" "${VM_DISK_GB:?}"
[ -f "$VM_DIR/machine" ] || fail "no VM at $VM_DIR"
disk_needs_growing "$VM_DISK_GB" || { echo "VM $VM_NAME: disk is ${VM_DISK_GB} GiB already"; exit 0; }

vm_stop "${VM_SHUTDOWN_TIMEOUT:-20}"
disk_grow_offline "$VM_DISK_GB"
vm_boot "${VM_BOOT_TIMEOUT:-90}"
echo "VM $VM_NAME: disk ${VM_DISK_GB} GiB"
