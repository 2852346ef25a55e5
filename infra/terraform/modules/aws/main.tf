# A VM of an `aws` region: an EC2 instance at the address the control plane allocated, an
# EBS volume for the data, a security group open only to the allowlist (and to the
# control plane for SSH and the health check), and cloud-init for the SSH user.

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

resource "aws_vpc_security_group_ingress_rule" "engine" {
  for_each = toset(concat(var.allowlist, var.control_plane_cidrs))

  security_group_id = aws_security_group.this.id
  description       = "Engine clients"
  ip_protocol       = "tcp"
  from_port         = var.engine_port
  to_port           = var.engine_port
  cidr_ipv4         = each.value
  tags              = local.tags
}

resource "aws_vpc_security_group_ingress_rule" "ssh" {
  for_each = toset(var.control_plane_cidrs)

  security_group_id = aws_security_group.this.id
  description       = "Ansible from the Basalt workers"
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_ipv4         = each.value
  tags              = local.tags
}

resource "aws_vpc_security_group_egress_rule" "all" {
  security_group_id = aws_security_group.this.id
  description       = "Outbound (packages, time)"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
  tags              = local.tags
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
