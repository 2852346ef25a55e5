output "nodes" {
  description = "The VMs: name, private_ip, public_ip (the same address here), ssh_user (empty for process VMs: Ansible connects locally) and data_dir of each."
  value = [
    for node in var.nodes : {
      name       = node.name
      private_ip = local.listen_ip[node.name]
      public_ip  = local.listen_ip[node.name]
      ssh_user   = local.process ? "" : "root"
      data_dir   = local.process ? "${var.vms_dir}/${node.name}/data" : "/var/lib/basalt"
    }
  ]
  depends_on = [terraform_data.this, terraform_data.limits]
}

output "limits_enforced" {
  description = "Whether CPU and memory limits are enforced (cgroups of nspawn VMs); process VMs run without limits."
  value       = !local.process
}
