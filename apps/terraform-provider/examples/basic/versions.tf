terraform {
  required_version = ">= 1.5"

  required_providers {
    basalt = {
      source = "basalt/basalt"
    }
  }
}
