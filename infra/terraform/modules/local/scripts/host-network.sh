#!/usr/bin/env bash
# Set up the host side of the `local` region's network before anything connects to a pool
# address: the project bridge with the gateway address, and the pool's route of last resort
# (see bridge_up). Idempotent; the bootstrap runs it, and every worker again at start.
# With `--check` it changes nothing and only says whether the network is in place.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm-lib.sh"

: "${VM_BRIDGE:?}" "${VM_GATEWAY:?}" "${VM_PREFIX_LENGTH:?}"

if [ "${1:-}" != "--check" ]; then
  command -v ip >/dev/null || fail "the ip command (iproute2) is not installed"
  # The worker walls each instance's VMs in with nftables (services/worker/src/firewall): a
  # bridge without it would hand out VMs that reach everything.
  command -v nft >/dev/null || fail "the nft command (nftables) is not installed: the tenant firewall cannot be set up"
  [ "$(id -u)" = 0 ] || fail "setting up bridge $VM_BRIDGE needs root"
  bridge_up
fi
# Read whole before matching: grep -q stops early, and with pipefail the writer's SIGPIPE fails the check.
addresses=$(ip -o addr show dev "$VM_BRIDGE" up 2>/dev/null || true)
[[ "$addresses" == *" inet $VM_GATEWAY/$VM_PREFIX_LENGTH "* ]] || fail "bridge $VM_BRIDGE does not hold $VM_GATEWAY/$VM_PREFIX_LENGTH"
echo "bridge $VM_BRIDGE holds $VM_GATEWAY/$VM_PREFIX_LENGTH; $(pool_cidr) is unreachable elsewhere"
