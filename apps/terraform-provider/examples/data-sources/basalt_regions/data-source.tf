data "basalt_regions" "all" {}

output "available_regions" {
  value = [for r in data.basalt_regions.all.regions : r.id if r.available]
}
