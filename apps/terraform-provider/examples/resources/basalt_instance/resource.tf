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

  # The daily automatic backup's window (UTC, at least an hour) and how long those are kept.
  backup_window         = "02:00-03:30"
  backup_retention_days = 14

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

# A copy of sessions-cache as it was at a point in time, inside its restore window. Changing
# restore_from replaces the instance.
resource "basalt_instance" "sessions_yesterday" {
  name          = "sessions-yesterday"
  instance_type = "kv.standard.large"
  region        = "local"
  disk_gib      = 40

  restore_from {
    source_instance_id = basalt_instance.sessions.id
    point_in_time      = "2026-12-01T10:15:30Z"
  }
}
