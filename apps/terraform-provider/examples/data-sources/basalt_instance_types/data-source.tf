data "basalt_instance_types" "local" {
  region = "local"
}

# The smallest type with at least 8 GiB of memory.
output "type_with_8_gib" {
  value = [for t in data.basalt_instance_types.local.instance_types : t.id if t.memory_gib >= 8][0]
}
