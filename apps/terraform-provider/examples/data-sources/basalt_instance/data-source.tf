data "basalt_instance" "shared" {
  id = "5f8e3c1e-7c2a-4f1e-9a53-2b7d0c4e8a11"
}

output "shared_endpoint" {
  value = "${data.basalt_instance.shared.host}:${data.basalt_instance.shared.port}"
}
