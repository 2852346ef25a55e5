variable "name" {
  description = "Name of the instance, unique in the project."
  type        = string
  default     = "example-cache"
}

variable "instance_type" {
  description = "Instance type (see data.basalt_instance_types)."
  type        = string
  default     = "kv.standard.small"
}

variable "region" {
  description = "Region to create the instance in."
  type        = string
  default     = "local"
}

variable "allowed_cidrs" {
  description = "Networks allowed to connect; empty lets every address in. On region local the host reaches its VMs from 10.77.0.1."
  type        = list(string)
  default     = ["10.77.0.1/32"]
}
