data "basalt_backups" "sessions" {
  instance_id = basalt_instance.sessions.id
}

# Newest first: the first succeeded one is the latest to restore from.
output "latest_succeeded_backup" {
  value = try([for b in data.basalt_backups.sessions.backups : b.id if b.status == "succeeded"][0], null)
}
