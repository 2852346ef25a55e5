variable "instance_id" {
  description = "Id of the Basalt instance the VMs belong to; names and tags every resource."
  type        = string
}

variable "nodes" {
  description = "The VMs to create: a unique name and the private IPv4 address the control plane allocated for each (inside subnet_id)."
  type = list(object({
    name       = string
    private_ip = string
  }))
}

variable "cpus" {
  description = "CPUs of each VM, from the instance type; with memory_mb it picks the EC2 instance type."
  type        = number
}

variable "memory_mb" {
  description = "Memory of each VM in MiB, from the instance type."
  type        = number
}

variable "disk_gb" {
  description = "Size of each VM's EBS data volume in GiB (mounted at data_dir)."
  type        = number
  default     = 10
}

variable "ec2_instance_types" {
  description = "EC2 instance type for each Basalt size, keyed \"<cpus>x<memory_mb>\"."
  type        = map(string)
  default = {
    "1x2048"    = "t3.small"
    "2x8192"    = "m6i.large"
    "4x16384"   = "m6i.xlarge"
    "8x32768"   = "m6i.2xlarge"
    "16x65536"  = "m6i.4xlarge"
    "32x131072" = "m6i.8xlarge"
    "52x196608" = "m6i.12xlarge"
  }
}

variable "ami_id" {
  description = "AMI of a Debian 12 (bookworm) image with cloud-init, in the region."
  type        = string
}

variable "subnet_id" {
  description = "Subnet the VMs are placed in; the region's address pool is its CIDR."
  type        = string
}

variable "vpc_id" {
  description = "VPC of the subnet; holds the instance's security group."
  type        = string
}

variable "associate_public_ip" {
  description = "Give each VM a public address (clients outside the VPC)."
  type        = bool
  default     = false
}

variable "ssh_user" {
  description = "User cloud-init creates for Ansible, with passwordless sudo."
  type        = string
  default     = "basalt"
}

variable "ssh_public_key" {
  description = "The region's SSH public key (OpenSSH format), authorized for ssh_user."
  type        = string
}

variable "allowlist" {
  description = "Client CIDRs allowed to reach the engine port; nothing else is let in to it."
  type        = list(string)
  default     = []
}

variable "control_plane_cidrs" {
  description = "CIDRs of the Basalt workers, allowed to reach SSH (Ansible) and the engine port (health check)."
  type        = list(string)
}

variable "engine_port" {
  description = "TCP port the engine listens on (RESP)."
  type        = number
  default     = 6379
}

variable "engine_tls_port" {
  description = "TCP port of the engine's TLS listener."
  type        = number
  default     = 6380
}

variable "engine_memcached_port" {
  description = "TCP port of the engine's memcached text protocol listener."
  type        = number
  default     = 11211
}

variable "engine_admin_port" {
  description = "TCP port of the engine's admin listener (/metrics), reached by the control plane only."
  type        = number
  default     = 9121
}

variable "data_dir" {
  description = "Where the EBS data volume is mounted on each VM."
  type        = string
  default     = "/var/lib/basalt"
}

variable "tags" {
  description = "Extra tags for every resource."
  type        = map(string)
  default     = {}
}
