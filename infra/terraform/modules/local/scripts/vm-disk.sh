#!/usr/bin/env bash
# Grow the disk of one running VM of the `local` region to VM_DISK_GB GiB (on a larger
# disk_gib); the VM keeps running, its filesystem grows online. A disk never shrinks.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm-lib.sh"

: "${VM_DIR:?}" "${VM_DISK_GB:?}"
[ -f "$VM_DIR/machine" ] || fail "no VM at $VM_DIR"
disk_grow "$VM_DISK_GB"
echo "VM $(basename "$VM_DIR"): disk ${VM_DISK_GB} GiB"
