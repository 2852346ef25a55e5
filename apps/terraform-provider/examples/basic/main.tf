# One Basalt instance. The provider reads BASALT_ENDPOINT and BASALT_API_KEY from the
# environment; the project defaults to the API key's only project.
provider "basalt" {}

resource "basalt_instance" "this" {
  name          = var.name
  instance_type = var.instance_type
  region        = var.region

  # No password: Basalt generates one, and it is only in the sensitive connection_uri.
  # Bump password_version to rotate it in place (the old one keeps working until revoked).
  password_version = 1

  allowlist = [for cidr in var.allowed_cidrs : { cidr = cidr, description = "terraform example" }]

  tags = {
    example = "basic"
  }
}
