#!/usr/bin/env bash
# Set the CPU quota and memory limit of one running VM of the `local` region (at creation
# and on resize); the VM keeps running and keeps its data.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cgroup.sh"
. "$here/vm-lib.sh"

: "${VM_DIR:?}" "${VM_CPUS:?}" "${VM_MEMORY_MB:?}"
[ -f "$VM_DIR/machine" ] || fail "no VM at $VM_DIR"
machine=$(cat "$VM_DIR/machine")
cgroup_create "$machine"
cgroup_set_limits "$machine" "$VM_CPUS" "$VM_MEMORY_MB"
echo "VM $(basename "$VM_DIR"): cpus=$VM_CPUS memory_mb=$VM_MEMORY_MB"
