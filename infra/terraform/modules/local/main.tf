# A VM of the `local` region is a systemd-nspawn container booted from the shared
# read-only image with its own overlay, network namespace on the project bridge, cgroup
# limits and sshd. Where containers cannot run, vm_kind = "process" makes a directory per
# VM instead, in which Ansible runs the engine as a supervised process on a loopback
# address (limits not enforced). The scripts under ./scripts do the work.

locals {
  nodes       = { for node in var.nodes : node.name => node }
  scripts_dir = abspath("${path.module}/scripts")
  process     = var.vm_kind == "process"
  # A process VM listens on the loopback twin of its pool address (10.77.0.5 -> 127.77.0.5):
  # reachable on this host without root, one address per VM as on the bridge.
  listen_ip = {
    for name, node in local.nodes : name => (
      local.process ? join(".", concat(["127"], slice(split(".", node.private_ip), 1, 4))) : node.private_ip
    )
  }
}

resource "terraform_data" "this" {
  for_each = local.nodes

  # A new address or image means a new VM; a new size does not (see `limits`).
  triggers_replace = {
    private_ip = each.value.private_ip
    image_dir  = var.image_dir
    vm_kind    = var.vm_kind
  }

  input = {
    scripts_dir      = local.scripts_dir
    destroy_script   = local.process ? "process-destroy.sh" : "vm-destroy.sh"
    vm_dir           = "${var.vms_dir}/${each.key}"
    private_ip       = local.listen_ip[each.key]
    known_hosts_file = var.known_hosts_file
  }

  provisioner "local-exec" {
    command = "${local.scripts_dir}/${local.process ? "process-create.sh" : "vm-create.sh"}"
    environment = {
      VM_NAME          = each.key
      VM_DIR           = "${var.vms_dir}/${each.key}"
      VM_IMAGE         = var.image_dir
      VM_IP            = local.listen_ip[each.key]
      VM_PREFIX_LENGTH = var.prefix_length
      VM_GATEWAY       = var.gateway
      VM_BRIDGE        = var.bridge
      VM_CPUS          = var.cpus
      VM_MEMORY_MB     = var.memory_mb
      VM_DISK_GB       = var.disk_gb
      VM_SSH_PUBKEY    = var.ssh_public_key_file
      VM_KNOWN_HOSTS   = var.known_hosts_file
    }
  }

  provisioner "local-exec" {
    when    = destroy
    command = "${self.input.scripts_dir}/${self.input.destroy_script}"
    environment = {
      VM_DIR         = self.input.vm_dir
      VM_IP          = self.input.private_ip
      VM_KNOWN_HOSTS = self.input.known_hosts_file
    }
  }
}

# Limits are their own resource so that a resize replaces only them: the running VM and
# its data stay, and the new CPU quota and memory limit are written to its cgroup.
resource "terraform_data" "limits" {
  for_each = local.process ? {} : local.nodes

  triggers_replace = {
    vm        = terraform_data.this[each.key].id
    cpus      = var.cpus
    memory_mb = var.memory_mb
  }

  provisioner "local-exec" {
    command = "${local.scripts_dir}/vm-limits.sh"
    environment = {
      VM_DIR       = "${var.vms_dir}/${each.key}"
      VM_CPUS      = var.cpus
      VM_MEMORY_MB = var.memory_mb
    }
  }
}

# The disk grows on a larger disk_gb (the image file and its filesystem, offline: the VM
# reboots onto it) and keeps its data.
resource "terraform_data" "disk" {
  for_each = local.process ? {} : local.nodes

  triggers_replace = {
    vm      = terraform_data.this[each.key].id
    disk_gb = var.disk_gb
  }

  # The VM reboots onto the grown disk with its new limits already in place.
  depends_on = [terraform_data.limits]

  provisioner "local-exec" {
    command = "${local.scripts_dir}/vm-disk.sh"
    environment = {
      VM_NAME      = each.key
      VM_DIR       = "${var.vms_dir}/${each.key}"
      VM_IMAGE     = var.image_dir
      VM_IP        = local.listen_ip[each.key]
      VM_BRIDGE    = var.bridge
      VM_CPUS      = var.cpus
      VM_MEMORY_MB = var.memory_mb
      VM_DISK_GB   = var.disk_gb
    }
  }
}
