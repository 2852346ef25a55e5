# A VM of an `aws` region: an EC2 instance at the address the control plane allocated, an
# EBS volume for the data, a security group that says what the host firewall of region
# `local` says (services/worker/src/firewall/openings.ts, one rule table): the engine ports
# open to the allowlist and the control plane, SSH and the metrics port to the control plane,
# and the instance's own nodes to each other (replication); egress only to the instance's own
# nodes — no 0.0.0.0/0 (replies are let out by the group's state, and the VPC's DNS, time and
# metadata services are not filtered by security groups). Cloud-init for the SSH user.
#
# Only format-checked here (`terraform fmt -check`): this machine has no provider registry, so
# the AWS provider cannot be installed and `terraform validate` runs only where it can
# (README.md, "Checking it here").

locals {
  nodes       = { for node in var.nodes : node.name => node }
  size_key    = "${var.cpus}x${var.memory_mb}"
  ec2_type    = lookup(var.ec2_instance_types, local.size_key, null)
  tags        = merge(var.tags, { "basalt:instance" = var.instance_id })
  data_device = "/dev/sdf"
}

resource "aws_security_group" "this" {
  name_prefix = "basalt-${var.instance_id}-"
  description = "Basalt instance ${var.instance_id}: engine port for the allowlist, SSH for the control plane"
  vpc_id      = var.vpc_id
  tags        = local.tags

  lifecycle {
    create_before_destroy = true
  }
}

locals {
  # The engine's client ports: RESP, RESP over TLS, memcached (openings.ts DATA_PORTS).
  data_ports = toset([var.engine_port, var.engine_tls_port, var.engine_memcached_port])
  # One rule per (source, port): the customer's allowlist and the control plane on every data port.
  engine_sources = toset(concat(var.allowlist, var.control_plane_cidrs))
  engine_rules   = { for pair in setproduct(local.engine_sources, local.data_ports) : "${pair[0]}:${pair[1]}" => { cidr = pair[0], port = pair[1] } }
}

resource "aws_vpc_security_group_ingress_rule" "engine" {
  for_each = local.engine_rules

  security_group_id = aws_security_group.this.id
  description       = "clients-from-allowlist / control-plane-engine"
  ip_protocol       = "tcp"
  from_port         = each.value.port
  to_port           = each.value.port
  cidr_ipv4         = each.value.cidr
  tags              = local.tags
}

resource "aws_vpc_security_group_ingress_rule" "ssh" {
  for_each = toset(var.control_plane_cidrs)

  security_group_id = aws_security_group.this.id
  description       = "control-plane-ssh: Ansible from the Basalt workers"
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_ipv4         = each.value
  tags              = local.tags
}

resource "aws_vpc_security_group_ingress_rule" "metrics" {
  for_each = toset(var.control_plane_cidrs)

  security_group_id = aws_security_group.this.id
  description       = "metrics-scrape: Prometheus scrapes the admin /metrics port"
  ip_protocol       = "tcp"
  from_port         = var.engine_admin_port
  to_port           = var.engine_admin_port
  cidr_ipv4         = each.value
  tags              = local.tags
}

# The instance's own nodes reach each other (replication, failover), and nothing else.
resource "aws_vpc_security_group_ingress_rule" "own_nodes" {
  security_group_id            = aws_security_group.this.id
  description                  = "own-nodes: replication between the instance's VMs"
  ip_protocol                  = "-1"
  referenced_security_group_id = aws_security_group.this.id
  tags                         = local.tags
}

resource "aws_vpc_security_group_egress_rule" "own_nodes" {
  security_group_id            = aws_security_group.this.id
  description                  = "own-nodes: a VM opens connections to its own instance's nodes only"
  ip_protocol                  = "-1"
  referenced_security_group_id = aws_security_group.this.id
  tags                         = local.tags
}

resource "aws_instance" "this" {
  for_each = local.nodes

  ami                         = var.ami_id
  instance_type               = local.ec2_type
  subnet_id                   = var.subnet_id
  private_ip                  = each.value.private_ip
  associate_public_ip_address = var.associate_public_ip
  vpc_security_group_ids      = [aws_security_group.this.id]
  user_data_replace_on_change = false
  user_data = templatefile("${path.module}/cloud-init.yaml.tftpl", {
    hostname       = each.key
    ssh_user       = var.ssh_user
    ssh_public_key = var.ssh_public_key
    data_dir       = var.data_dir
    data_label     = "basalt-data"
  })

  metadata_options {
    http_tokens = "required"
  }

  root_block_device {
    encrypted   = true
    volume_type = "gp3"
  }

  tags = merge(local.tags, { Name = each.key })

  lifecycle {
    precondition {
      condition     = local.ec2_type != null
      error_message = "No EC2 instance type for size ${local.size_key}: add it to ec2_instance_types."
    }
  }
}

resource "aws_ebs_volume" "data" {
  for_each = local.nodes

  availability_zone = aws_instance.this[each.key].availability_zone
  size              = var.disk_gb
  type              = "gp3"
  encrypted         = true
  tags              = merge(local.tags, { Name = "${each.key}-data" })
}

resource "aws_volume_attachment" "data" {
  for_each = local.nodes

  device_name = local.data_device
  volume_id   = aws_ebs_volume.data[each.key].id
  instance_id = aws_instance.this[each.key].id
}
