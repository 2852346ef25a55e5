output "nodes" {
  description = "The VMs: name, private_ip, public_ip, ssh_user and data_dir of each."
  value = [
    for node in var.nodes : {
      name       = node.name
      private_ip = aws_instance.this[node.name].private_ip
      public_ip  = coalesce(aws_instance.this[node.name].public_ip, aws_instance.this[node.name].private_ip)
      ssh_user   = var.ssh_user
      data_dir   = var.data_dir
    }
  ]
  depends_on = [aws_volume_attachment.data]
}

output "limits_enforced" {
  description = "CPU and memory are those of the EC2 instance type."
  value       = true
}

output "security_group_id" {
  description = "Security group of the instance (engine port open to the allowlist only)."
  value       = aws_security_group.this.id
}
