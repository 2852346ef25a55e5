output "host" {
  description = "Address of the instance's endpoint."
  value       = basalt_instance.this.host
}

output "port" {
  description = "Port of the instance's endpoint."
  value       = basalt_instance.this.port
}

output "connection_uri" {
  description = "redis://default:PASSWORD@HOST:PORT, for redis-cli -u and client libraries."
  value       = basalt_instance.this.connection_uri
  sensitive   = true
}
