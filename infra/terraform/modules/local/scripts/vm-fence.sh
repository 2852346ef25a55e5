#!/usr/bin/env bash
# Fences a VM of the `local` region (issue 15): kills it at once, as a cloud's "stop instance
# --force", so a primary that lost its place can never take a write again. Its directory and
# disk stay (the control plane rebuilds the node); a VM already stopped is fine.
#   VM_DIR=<vm dir> vm-fence.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cgroup.sh"
. "$here/vm-lib.sh"

: "${VM_DIR:?}"
VM_NAME=$(basename "$VM_DIR")
vm_stop 0
echo "VM $VM_NAME is stopped"
