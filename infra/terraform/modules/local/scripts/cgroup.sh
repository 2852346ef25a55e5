# Sourced by the vm-*.sh scripts: the cgroup of one VM, on cgroup v2 or v1 (hybrid hosts).
#
# systemd is not always PID 1 where Basalt runs (then systemd-run and CPUQuota= are not
# available), so the scripts write the cgroup files directly: cpu.max / memory.max on a
# unified hierarchy, cpu.cfs_quota_us / memory.limit_in_bytes on the v1 controllers.

cgroup_root=/sys/fs/cgroup
cgroup_group=basalt

cgroup_is_v2() {
  [ -f "$cgroup_root/cgroup.controllers" ]
}

# cgroup_dirs NAME: the directories holding the VM's cgroup (one on v2, two on v1).
cgroup_dirs() {
  if cgroup_is_v2; then
    echo "$cgroup_root/$cgroup_group/$1"
  else
    echo "$cgroup_root/cpu/$cgroup_group/$1" "$cgroup_root/memory/$cgroup_group/$1"
  fi
}

cgroup_create() {
  if cgroup_is_v2; then
    mkdir -p "$cgroup_root/$cgroup_group"
    # Delegate the controllers down to the VM's group.
    echo "+cpu +memory" > "$cgroup_root/cgroup.subtree_control"
    echo "+cpu +memory" > "$cgroup_root/$cgroup_group/cgroup.subtree_control"
  fi
  for dir in $(cgroup_dirs "$1"); do mkdir -p "$dir"; done
}

# cgroup_set_limits NAME CPUS MEMORY_MB
cgroup_set_limits() {
  local period=100000
  local quota
  quota=$(awk -v cpus="$2" -v period="$period" 'BEGIN { printf "%d", cpus * period }')
  local bytes=$(( $3 * 1024 * 1024 ))
  if cgroup_is_v2; then
    local dir="$cgroup_root/$cgroup_group/$1"
    echo "$quota $period" > "$dir/cpu.max"
    echo "$bytes" > "$dir/memory.max"
  else
    echo "$period" > "$cgroup_root/cpu/$cgroup_group/$1/cpu.cfs_period_us"
    echo "$quota" > "$cgroup_root/cpu/$cgroup_group/$1/cpu.cfs_quota_us"
    echo "$bytes" > "$cgroup_root/memory/$cgroup_group/$1/memory.limit_in_bytes"
  fi
}

# cgroup_enter NAME PID: move a process (and so its future children) into the VM's cgroup.
cgroup_enter() {
  for dir in $(cgroup_dirs "$1"); do echo "$2" > "$dir/cgroup.procs"; done
}

# cgroup_remove NAME: remove the VM's (empty) cgroup, children first.
cgroup_remove() {
  for dir in $(cgroup_dirs "$1"); do
    [ -d "$dir" ] || continue
    find "$dir" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null || true
    rmdir "$dir" 2>/dev/null || true
  done
}

# cgroup_kill NAME: kills every process left in the VM's cgroup (a VM whose systemd-nspawn
# was killed leaves its container's processes behind, holding its root and its address).
cgroup_kill() {
  local dir pid
  for dir in $(cgroup_dirs "$1"); do
    [ -d "$dir" ] || continue
    if [ -f "$dir/cgroup.kill" ]; then
      echo 1 > "$dir/cgroup.kill"
    else
      for pid in $(find "$dir" -name cgroup.procs -exec cat {} + 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
    fi
  done
  # Wait until they are gone (a killed process still holds its mounts until reaped).
  for _ in $(seq 1 50); do
    [ -z "$(for dir in $(cgroup_dirs "$1"); do find "$dir" -name cgroup.procs -exec cat {} + 2>/dev/null; done)" ] && return 0
    sleep 0.1
  done
}
