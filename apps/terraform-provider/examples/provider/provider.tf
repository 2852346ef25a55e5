terraform {
  required_providers {
    basalt = {
      source = "basalt/basalt"
    }
  }
}

# Or leave the block empty and set BASALT_ENDPOINT, BASALT_API_KEY (and BASALT_PROJECT).
provider "basalt" {
  endpoint = "http://127.0.0.1:8080"
  api_key  = var.basalt_api_key
}

variable "basalt_api_key" {
  type      = string
  sensitive = true
}
