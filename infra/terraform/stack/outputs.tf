output "nodes" {
  description = "The instance's VMs: name, private_ip, public_ip, ssh_user and data_dir of each."
  value       = module.local.nodes
}

output "limits_enforced" {
  description = "Whether CPU and memory limits of the instance type are enforced on the VMs."
  value       = module.local.limits_enforced
}
