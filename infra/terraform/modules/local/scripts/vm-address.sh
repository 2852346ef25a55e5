#!/usr/bin/env bash
# Moves a floating address of the `local` region (issue 15), as a cloud's API assigns or
# unassigns a secondary private address: `add` puts ADDRESS/PREFIX on the VM's host0 inside
# its network namespace and announces it with gratuitous ARPs, so the host and the other VMs
# on the bridge send to the new owner at once; `del` takes it off (nothing to do when the VM
# or the address is gone). Works whatever the VM's link to the bridge is: it enters the
# namespace from this host. The host's own neighbour entry for the address is set to the new
# owner too: a gratuitous ARP does not replace an entry the kernel still holds as reachable
# (seen with a primary cut off the bridge: its clients waited ~30 s for the entry to expire).
#   VM_DIR=<vm dir> VM_BRIDGE=<bridge> vm-address.sh add|del ADDRESS/PREFIX
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm-lib.sh"

: "${VM_DIR:?}" "${VM_BRIDGE:=basalt0}"
VM_NAME=$(basename "$VM_DIR")
action=${1:?add or del}
cidr=${2:?ADDRESS/PREFIX}
[[ "$cidr" =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}$ ]] || fail "not an IPv4 address/prefix: $cidr"

case "$action" in
  add)
    vm_running || fail "VM $VM_NAME is not running: cannot give it $cidr"
    pid=$(vm_init_pid) || fail "VM $VM_NAME has no init process"
    nsenter --net="/proc/$pid/ns/net" ip addr replace "$cidr" dev host0
    mac=$(nsenter --net="/proc/$pid/ns/net" ip -o link show host0 | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2)
    nsenter --net="/proc/$pid/ns/net" /usr/bin/python3 "$here/garp.py" host0 "${cidr%/*}" "$mac"
    routed_via_bridge "${cidr%/*}" || fail "${cidr%/*} is not routed through $VM_BRIDGE"
    ip neigh replace "${cidr%/*}" lladdr "$mac" dev "$VM_BRIDGE" nud reachable
    echo "VM $VM_NAME holds $cidr"
    ;;
  del)
    if vm_running && pid=$(vm_init_pid); then
      nsenter --net="/proc/$pid/ns/net" ip addr del "$cidr" dev host0 2>/dev/null || true
    fi
    echo "VM $VM_NAME does not hold $cidr"
    ;;
  *) fail "unknown action $action (add or del)" ;;
esac
