#!/usr/bin/env bash
# Create one process VM of the `local` region, the fallback where systemd-nspawn cannot
# run (not root, not Linux): a directory for the engine's binary, config and data, and
# an address on loopback. Ansible installs the engine there and supervises it as a
# process. CPU and memory limits are NOT enforced for process VMs.
set -euo pipefail
: "${VM_NAME:?}" "${VM_DIR:?}" "${VM_IP:?}"
mkdir -p "$VM_DIR"/{bin,etc,data,run}
echo "$VM_IP" > "$VM_DIR/address"
echo "process" > "$VM_DIR/kind"
echo "process VM $VM_NAME at $VM_IP in $VM_DIR (limits not enforced)"
