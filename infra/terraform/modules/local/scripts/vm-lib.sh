# Sourced by the vm-*.sh scripts: the steps that make up one VM. Expects the VM_* settings.

fail() {
  echo "error: $*" >&2
  exit 1
}

# vm_running: the VM's systemd-nspawn process is alive.
vm_running() {
  local pid
  [ -f "$VM_DIR/nspawn.pid" ] || return 1
  pid=$(cat "$VM_DIR/nspawn.pid")
  [ -n "$pid" ] && [ -d "/proc/$pid" ] && grep -q systemd-nspawn "/proc/$pid/cmdline" 2>/dev/null
}

# vm_init_pid: the VM's init (the child of its systemd-nspawn), whose namespaces are the VM's.
vm_init_pid() {
  local pid child
  pid=$(cat "$VM_DIR/nspawn.pid")
  child=$(cat /proc/"$pid"/task/*/children 2>/dev/null | awk '{print $1; exit}')
  [ -n "$child" ] && [ -d "/proc/$child" ] && echo "$child"
}

# vm_machine_name: the VM's machine name, unique per VM directory (so per VM, on this host and
# across clones: two VMs never share a cgroup or a veth), and short enough that the host side
# of its veth ("vb-" + name) stays within the 15 characters of an interface name.
vm_machine_name() {
  printf 'bvm%s' "$(printf '%s' "$VM_DIR" | sha256sum | cut -c1-8)"
}

# pool_cidr: the region's address pool, the network of the gateway address.
pool_cidr() {
  local a b c d address mask network
  IFS=. read -r a b c d <<<"$VM_GATEWAY"
  address=$(((a << 24) | (b << 16) | (c << 8) | d))
  mask=$(((0xffffffff << (32 - VM_PREFIX_LENGTH)) & 0xffffffff))
  network=$((address & mask))
  printf '%d.%d.%d.%d/%d' $((network >> 24)) $(((network >> 16) & 255)) $(((network >> 8) & 255)) $((network & 255)) "$VM_PREFIX_LENGTH"
}

# bridge_up: the host side of the region's network. The project bridge exists, holds the
# gateway address and is up; and the pool has an `unreachable` route of last resort, so
# that whenever the bridge is missing a packet for a VM address fails on this host instead
# of leaving it by the default route.
bridge_up() {
  (
    flock 9
    ip link show dev "$VM_BRIDGE" >/dev/null 2>&1 || ip link add "$VM_BRIDGE" type bridge
    ip addr replace "$VM_GATEWAY/$VM_PREFIX_LENGTH" dev "$VM_BRIDGE"
    ip link set "$VM_BRIDGE" up
    ip route replace unreachable "$(pool_cidr)" metric 4242
  ) 9>/run/lock/basalt-bridge.lock
}

# routed_via_bridge IP: the kernel sends packets for IP through the project bridge.
routed_via_bridge() {
  local route
  route=$(ip -o route get "$1" 2>/dev/null) || return 1
  [[ "$route" == *" dev $VM_BRIDGE "* ]]
}

# The VM's disk: a sparse image file holding an ext4 filesystem of the VM's disk_gib. Its
# writable layer lives there, so writing past the disk's size fails inside the VM (ENOSPC)
# and never fills the host's disk. The disk and the VM's root (the image with the writable
# layer on top) are mounted only in a private mount namespace of the VM's own, never in the
# host's: every container started later copies the host's mounts into its namespace, where
# they would outlive the VM and keep its disk in use (a filesystem grown or removed under
# them would be corrupted or never freed).

# disk_create GIB: makes the disk image once.
disk_create() {
  local image="$VM_DIR/disk.img"
  [ -f "$image" ] && return 0
  truncate -s "${1}G" "$image.new"
  mkfs.ext4 -q -F -m 0 -L basalt-vm "$image.new" || fail "mkfs.ext4 of the VM's ${1} GiB disk failed"
  mv "$image.new" "$image"
}

# vm_mounts: mounts the disk and, over it, the VM's root (run inside the VM's namespace).
vm_mounts() {
  mkdir -p "$VM_DIR/disk" "$VM_DIR/root"
  mount -o loop "$VM_DIR/disk.img" "$VM_DIR/disk" || fail "mounting the VM's disk image failed"
  # The loop device reads and writes the image with O_DIRECT, as a cloud VM's disk has no
  # cache in the host: buffered, the host cached every write a second time and wrote it back
  # behind the VM, and the 4 KB benchmark rows fell round after round (mixed 4 KB pipeline 32:
  # 148,858 -> 119,346 -> 82,975 ops/s; with O_DIRECT 196,312, 204,096, 178,840). Best effort:
  # a host filesystem without O_DIRECT keeps the buffered device.
  losetup --direct-io=on "$(findmnt -n -o SOURCE "$VM_DIR/disk")" 2>/dev/null || true
  mkdir -p "$VM_DIR/disk/upper" "$VM_DIR/disk/work"
  mount -t overlay overlay \
    -o "lowerdir=$VM_IMAGE,upperdir=$VM_DIR/disk/upper,workdir=$VM_DIR/disk/work" "$VM_DIR/root"
}

# with_vm_root FUNCTION: runs FUNCTION of this file with the VM's root mounted at
# $VM_DIR/root, in a mount namespace that ends with it (the disk is free again after).
with_vm_root() {
  unshare --mount --propagation private bash -c '. "$1"; set -euo pipefail; vm_mounts; "$2"' \
    with-vm-root "$here/vm-lib.sh" "$1"
  disk_released || fail "the VM's disk image is still in use after $1"
}

# disk_needs_growing GIB: the disk image is smaller than GIB GiB (a disk never shrinks).
disk_needs_growing() {
  [ -f "$VM_DIR/disk.img" ] || fail "no disk image at $VM_DIR/disk.img"
  [ "$(stat -c %s "$VM_DIR/disk.img")" -lt $(($1 * 1024 * 1024 * 1024)) ]
}

# disk_grow_offline GIB: grows the image and its filesystem while nothing uses them.
# Offline, because online growth (EXT4_IOC_RESIZE_FS) is refused where the host runs in a
# container.
disk_grow_offline() {
  local image="$VM_DIR/disk.img" out
  disk_released || fail "the VM's disk image is still in use (a loop device holds it): not growing it"
  truncate -s "${1}G" "$image"
  out=$(e2fsck -f -p "$image" 2>&1) || [ $? -le 1 ] || fail "e2fsck of the VM's disk failed: $out"
  out=$(resize2fs "$image" 2>&1) || fail "resize2fs of the VM's disk to ${1} GiB failed: $out"
}

# disk_released: no loop device holds the disk image: its namespace, and so its mounts, are
# gone (the loop device clears itself then). Waits up to 10 s.
disk_released() {
  local attached
  for _ in $(seq 1 100); do
    attached=$(losetup -j "$VM_DIR/disk.img" 2>/dev/null || true)
    [ -z "$attached" ] && return 0
    sleep 0.1
  done
  return 1
}

# provision_root: first-boot settings written into the VM's layer, as cloud-init would:
# hostname, static address, a fresh SSH host key, the region's key for root.
provision_root() {
  local root="$VM_DIR/root"
  echo "$VM_NAME" > "$root/etc/hostname"

  mkdir -p "$root/etc/systemd/network" "$root/etc/systemd/system/multi-user.target.wants" \
    "$root/etc/systemd/system/sockets.target.wants"
  cat > "$root/etc/systemd/network/10-host0.network" <<NETWORK
[Match]
Name=host0

[Network]
Address=$VM_IP/$VM_PREFIX_LENGTH
Gateway=$VM_GATEWAY
LinkLocalAddressing=no
IPv6AcceptRA=no
NETWORK
  ln -sf /lib/systemd/system/systemd-networkd.service \
    "$root/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
  ln -sf /lib/systemd/system/systemd-networkd.socket \
    "$root/etc/systemd/system/sockets.target.wants/systemd-networkd.socket"
  # Nothing in the VM waits for "online"; a console getty is of no use without a console.
  for unit in systemd-networkd-wait-online.service console-getty.service getty@tty1.service; do
    ln -sf /dev/null "$root/etc/systemd/system/$unit"
  done

  rm -f "$root"/etc/ssh/ssh_host_*
  ssh-keygen -q -t ed25519 -N '' -C "$VM_NAME" -f "$root/etc/ssh/ssh_host_ed25519_key"

  install -d -m 700 "$root/root/.ssh"
  install -m 600 "$VM_SSH_PUBKEY" "$root/root/.ssh/authorized_keys"
  touch "$VM_DIR/disk/upper/.basalt-provisioned"
  # The host pins this key; it reads it here, outside the VM's namespace.
  cp "$root/etc/ssh/ssh_host_ed25519_key.pub" "$VM_DIR/host_key.pub"
}

# pin_host_key: the project's known_hosts holds this VM's key for its address, and no
# stale key of an earlier VM that had the same address.
pin_host_key() {
  local key
  key=$(cut -d' ' -f1,2 "$VM_DIR/host_key.pub")
  mkdir -p "$(dirname "$VM_KNOWN_HOSTS")"
  (
    flock 9
    touch "$VM_KNOWN_HOSTS"
    forget_host_key
    echo "$VM_IP $key" >> "$VM_KNOWN_HOSTS"
  ) 9>"$VM_KNOWN_HOSTS.lock"
}

# forget_host_key: drop the address's lines from known_hosts (caller holds the lock).
forget_host_key() {
  [ -f "$VM_KNOWN_HOSTS" ] || return 0
  awk -v ip="$VM_IP" '$1 != ip' "$VM_KNOWN_HOSTS" > "$VM_KNOWN_HOSTS.tmp"
  mv "$VM_KNOWN_HOSTS.tmp" "$VM_KNOWN_HOSTS"
}

# address_answers: something already accepts connections on the VM's address.
address_answers() {
  routed_via_bridge "$VM_IP" || fail "refusing to connect to $VM_IP: the kernel does not route it through $VM_BRIDGE"
  timeout 0.3 bash -c 'exec 3<>"/dev/tcp/$0/22"' "$VM_IP" 2>/dev/null
}

# vm_boot SECONDS: sets the VM's cgroup limits and boots it; returns when sshd answers (fd 8,
# vm-create's per-address lock, is not handed to the VM: the lock ends with the create). The
# VM runs in its own session so that it outlives Terraform and the worker; the wrapper moves
# itself into the VM's cgroup and a mount namespace of its own, mounts the VM's disk and
# root there (vm_mounts), and becomes systemd-nspawn: the mounts end with the VM.
vm_boot() {
  local machine
  machine=$(cat "$VM_DIR/machine")
  cgroup_create "$machine"
  cgroup_set_limits "$machine" "$VM_CPUS" "$VM_MEMORY_MB"
  : > "$VM_DIR/console.log"
  rm -f "$VM_DIR/nspawn.pid"
  # An empty environment but PATH: the VM process never holds what Terraform was given
  # (PG_CONN_STR, the state database's URL).
  setsid env -i PATH="$PATH" VM_DIR="$VM_DIR" VM_IMAGE="$VM_IMAGE" unshare --mount --propagation private bash -c '
    . "$1"
    . "$6"
    set -e
    cgroup_enter "$2" $$
    vm_mounts
    echo $$ > "$3/nspawn.pid"
    exec systemd-nspawn --quiet --boot --register=no --keep-unit \
      --directory="$3/root" --machine="$2" --hostname="$4" \
      --network-bridge="$5" --console=read-only --link-journal=no \
      --resolv-conf=off --timezone=off
  ' vm-boot "$here/cgroup.sh" "$machine" "$VM_DIR" "$VM_NAME" "$VM_BRIDGE" "$here/vm-lib.sh" \
    </dev/null >>"$VM_DIR/console.log" 2>&1 8>&- &
  disown
  wait_for_pid_file 5
  wait_for_ssh "$1"
  echo "VM $VM_NAME is up at $VM_IP (machine $machine)"
}

# wait_for_pid_file SECONDS: the boot wrapper has recorded the VM's process.
wait_for_pid_file() {
  local deadline=$((SECONDS + $1))
  until [ -s "$VM_DIR/nspawn.pid" ]; do
    ((SECONDS < deadline)) || fail "VM $VM_NAME did not start (no $VM_DIR/nspawn.pid)"
    sleep 0.05
  done
}

# wait_for_ssh SECONDS: sshd in the VM answers with its banner.
wait_for_ssh() {
  local deadline=$((SECONDS + $1))
  while ((SECONDS < deadline)); do
    # Only a process that is gone counts: while the wrapper execs systemd-nspawn its
    # cmdline can read empty for a moment, which vm_running would take for a stop.
    [ -d "/proc/$(cat "$VM_DIR/nspawn.pid")" ] || { tail -n 20 "$VM_DIR/console.log" >&2; fail "VM $VM_NAME stopped while booting"; }
    if timeout 1 bash -c 'exec 3<>"/dev/tcp/$0/22" && head -c 4 <&3' "$VM_IP" 2>/dev/null | grep -q SSH-; then
      return 0
    fi
    sleep 0.2
  done
  tail -n 20 "$VM_DIR/console.log" >&2
  fail "VM $VM_NAME did not answer on $VM_IP:22 within $1 s"
}

# vm_stop SECONDS: ask the VM to power off (SIGTERM makes systemd-nspawn shut the
# container down cleanly), and kill it if it has not stopped in time.
vm_stop() {
  local pid deadline=$((SECONDS + $1))
  if vm_running; then
    pid=$(cat "$VM_DIR/nspawn.pid")
    kill -TERM "$pid" 2>/dev/null || true
    while [ -d "/proc/$pid" ] && ((SECONDS < deadline)); do sleep 0.1; done
    if [ -d "/proc/$pid" ]; then
      echo "VM $VM_NAME did not power off within $1 s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
      while [ -d "/proc/$pid" ]; do sleep 0.1; done
    fi
  fi
  # A container whose systemd-nspawn was killed leaves its processes behind, and with them
  # its mount namespace, which keeps the VM's disk in use: none may outlive the VM.
  if [ -f "$VM_DIR/machine" ]; then cgroup_kill "$(cat "$VM_DIR/machine")"; fi
}
