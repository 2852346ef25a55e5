resource "basalt_instance_user" "reporting" {
  instance_id = basalt_instance.sessions.id
  username    = "reporting"
  permission  = "read_only"

  # Generated when absent; bump to rotate in place.
  password_version = 1
}
