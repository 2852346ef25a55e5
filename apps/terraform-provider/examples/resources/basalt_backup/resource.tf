# A manual backup, kept until it is destroyed; the apply returns once it has succeeded.
resource "basalt_backup" "before_migration" {
  instance_id = basalt_instance.sessions.id
}

# A new instance with the backup's data.
resource "basalt_instance" "sessions_copy" {
  name          = "sessions-copy"
  instance_type = "kv.standard.large"
  region        = "local"

  restore_from {
    backup_id = basalt_backup.before_migration.id
  }
}
