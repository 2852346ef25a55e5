# By instance ID. The password is never read back, so connection_uri stays null until the
# next rotation (bump password_version).
terraform import basalt_instance.sessions 5f8e3c1e-7c2a-4f1e-9a53-2b7d0c4e8a11
