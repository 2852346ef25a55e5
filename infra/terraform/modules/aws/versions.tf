terraform {
  required_version = ">= 1.5.0"

  # The AWS provider cannot be installed on an offline machine: this module is formatted
  # by the test suite but not validated there (see README.md).
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0, < 7.0"
    }
  }
}
