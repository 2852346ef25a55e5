resource "basalt_instance" "sessions" {
  name          = "sessions-cache"
  instance_type = "kv.standard.large"
  region        = "local"
  disk_gib      = 40

  # Rotate the default user's password in place by bumping the version.
  password_version = 1

  allowlist = [
    { cidr = "10.77.0.1", description = "the host" },
    { cidr = "192.0.2.0/24", description = "app servers" },
  ]

  deletion_protection = true

  tags = {
    team = "web"
  }

  parameters = {
    fsync   = "everysec"
    timeout = 300
  }

  timeouts {
    create = "20m"
  }
}

output "sessions_uri" {
  value     = basalt_instance.sessions.connection_uri
  sensitive = true
}

# A primary with two replicas on separate VMs: writes are acknowledged once a replica holds
# them (sync), so an automatic failover loses none; host/port follow the primary.
resource "basalt_instance" "jobs" {
  name          = "jobs-queue"
  instance_type = "kv.standard.small"
  region        = "local"
  architecture  = "standard"
  replicas      = 2

  parameters = {
    fsync            = "always"
    replication_mode = "sync"
  }
}

output "jobs_readonly_endpoint" {
  value = "${basalt_instance.jobs.readonly_host}:${basalt_instance.jobs.readonly_port}"
}
