variable "instance_id" {
  description = "Id of the Basalt instance this stack builds; names its VMs and state workspace."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{0,62}$", var.instance_id))
    error_message = "instance_id must be lower-case letters, digits and dashes (at most 63)."
  }
}

variable "region" {
  description = "Basalt region the instance lives in (a region maps to a target module)."
  type        = string
}

variable "node_count" {
  description = "Number of VMs (nodes) in the instance."
  type        = number
  default     = 1

  validation {
    condition     = var.node_count >= 1 && var.node_count <= 16
    error_message = "node_count must be between 1 and 16."
  }
}

variable "vm_size" {
  description = "Size of each VM from the instance type: CPUs (may be fractional) and memory in MiB."
  type = object({
    cpus      = number
    memory_mb = number
  })

  validation {
    condition     = var.vm_size.cpus > 0 && var.vm_size.memory_mb >= 64
    error_message = "vm_size needs cpus > 0 and memory_mb >= 64."
  }
}

variable "disk_gb" {
  description = "Data disk size of each VM in GiB."
  type        = number
  default     = 1
}

variable "addresses" {
  description = "Private IPv4 address of each node, allocated by the control plane from the region's pool (one per node)."
  type        = list(string)

  validation {
    condition     = alltrue([for a in var.addresses : can(cidrhost("${a}/32", 0))])
    error_message = "addresses must be IPv4 addresses."
  }
}

variable "local" {
  description = "Settings of the `local` target: VM kind (nspawn, or the process fallback), where VM state and the base image live, the project bridge, SSH key and known_hosts."
  type = object({
    vm_kind             = optional(string, "nspawn")
    vms_dir             = string
    image_dir           = string
    bridge              = string
    gateway             = string
    prefix_length       = number
    ssh_public_key_file = string
    known_hosts_file    = string
  })
}
