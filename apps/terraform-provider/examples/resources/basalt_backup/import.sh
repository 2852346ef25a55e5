# By the backup's ID (of the provider's project).
terraform import basalt_backup.before_migration 0b6f2d4e-9a1c-4e7b-8f3d-5c2a1e9b7d60
