output "nodes" {
  description = "The VMs: name, private_ip, public_ip (same as private here), ssh_user and data_dir of each."
  value = [
    for node in var.nodes : {
      name       = node.name
      private_ip = node.private_ip
      public_ip  = node.private_ip
      ssh_user   = "root"
      data_dir   = "/var/lib/basalt"
    }
  ]
  depends_on = [terraform_data.limits]
}

output "limits_enforced" {
  description = "CPU and memory limits are enforced through the VMs' cgroups."
  value       = true
}
