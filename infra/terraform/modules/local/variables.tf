variable "instance_id" {
  description = "Id of the Basalt instance the VMs belong to."
  type        = string
}

variable "nodes" {
  description = "The VMs to create: a unique name and the private IPv4 address the control plane allocated for each."
  type = list(object({
    name       = string
    private_ip = string
  }))
}

variable "cpus" {
  description = "CPUs of each VM (fractions allowed), enforced as a CFS quota on the VM's cgroup."
  type        = number
}

variable "memory_mb" {
  description = "Memory of each VM in MiB, enforced as the memory limit of the VM's cgroup."
  type        = number
}

variable "disk_gb" {
  description = "Disk size of each VM in GiB: the VM's writable layer lives on an ext4 filesystem of this size (a sparse image file), so writing past it fails inside the VM. Not enforced for process VMs."
  type        = number
  default     = 1
}

variable "vms_dir" {
  description = "Absolute directory under which each VM keeps its state (`<vms_dir>/<node name>`)."
  type        = string
}

variable "image_dir" {
  description = "Absolute path of the read-only Debian root filesystem the VMs boot from."
  type        = string
}

variable "bridge" {
  description = "Name of the project bridge the VMs' network namespaces are attached to."
  type        = string
  default     = "basalt0"
}

variable "gateway" {
  description = "Address of the host on the bridge, the VMs' default gateway."
  type        = string
  default     = "10.77.0.1"
}

variable "prefix_length" {
  description = "Prefix length of the region's address pool on the bridge."
  type        = number
  default     = 24
}

variable "ssh_public_key_file" {
  description = "Absolute path of the region's SSH public key, authorized for root in every VM."
  type        = string
}

variable "known_hosts_file" {
  description = "Absolute path of the project's known_hosts file; the VM's fresh host key is pinned there."
  type        = string
}

variable "vm_kind" {
  description = "`nspawn`: VMs are systemd-nspawn containers (root on Linux). `process`: the fallback where containers cannot run — a directory per VM, the engine supervised as a process on a loopback address, limits not enforced."
  type        = string
  default     = "nspawn"

  validation {
    condition     = contains(["nspawn", "process"], var.vm_kind)
    error_message = "vm_kind must be nspawn or process."
  }
}
