terraform {
  required_version = ">= 1.5.0"
  # Only the built-in `terraform_data` resource is used: nothing to download.
}
