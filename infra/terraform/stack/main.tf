# Root stack for one Basalt instance. The region's target module creates the VMs; the
# worker reads `nodes` and hands them to Ansible. Every target module takes the same
# inputs and returns the same `nodes` shape, so only the module block differs per target.

locals {
  nodes = [
    for index in range(var.node_count) : {
      name       = "${var.instance_id}-${index}"
      private_ip = var.addresses[index]
    }
  ]
}

module "local" {
  source = "../modules/local"

  instance_id         = var.instance_id
  vm_kind             = var.local.vm_kind
  nodes               = local.nodes
  cpus                = var.vm_size.cpus
  memory_mb           = var.vm_size.memory_mb
  disk_gb             = var.disk_gb
  vms_dir             = var.local.vms_dir
  image_dir           = var.local.image_dir
  bridge              = var.local.bridge
  gateway             = var.local.gateway
  prefix_length       = var.local.prefix_length
  ssh_public_key_file = var.local.ssh_public_key_file
  known_hosts_file    = var.local.known_hosts_file
}

check "one_address_per_node" {
  assert {
    condition     = length(var.addresses) == var.node_count
    error_message = "addresses must hold exactly node_count addresses."
  }
}
