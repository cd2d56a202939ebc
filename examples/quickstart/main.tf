# Quick start: one Hetzner Cloud account, the cheapest offer with at least two
# vCPU, and two servers booted with a small cloud-init.
#
#   export HCLOUD_TOKEN=...   # a read & write API token of a Hetzner Cloud project
#   terraform init && terraform apply
#
# `make demo` runs this configuration against a local emulator of the Hetzner
# Cloud API instead, so no account is needed.

terraform {
  required_version = ">= 1.11"
  required_providers {
    compute = {
      source = "seedcompute/compute"
    }
  }
}

provider "compute" {}

variable "hcloud_endpoint" {
  description = "Base URL of the Hetzner Cloud API. The demo points it at the local emulator."
  type        = string
  default     = "https://api.hetzner.cloud/v1"
}

variable "servers" {
  description = "How many servers to create."
  type        = number
  default     = 2
}

resource "compute_provider_account" "cloud" {
  name = "quickstart"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
    endpoint = var.hcloud_endpoint
  }
}

# Offers come sorted by price, cheapest first.
data "compute_offers" "two_vcpu" {
  accounts = [compute_provider_account.cloud.id]
  location = "fsn1"
  min_vcpu = 2
}

locals {
  offer = [for o in data.compute_offers.two_vcpu.offers : o if o.available][0]
}

resource "compute_instance" "web" {
  count = var.servers

  account   = compute_provider_account.cloud.id
  name      = "quickstart-web-${count.index + 1}"
  offer_id  = local.offer.id
  image     = "ubuntu-24.04"
  user_data = <<-EOT
    #cloud-config
    hostname: quickstart-web-${count.index + 1}
    packages: [nginx]
    runcmd:
      - systemctl enable --now nginx
  EOT

  labels = {
    app = "quickstart"
  }
}

output "offer" {
  description = "The offer the servers run on."
  value = {
    id             = local.offer.id
    description    = local.offer.description
    vcpu           = local.offer.vcpu
    memory_gib     = local.offer.memory_gib
    price_per_hour = local.offer.price_per_hour
    currency       = local.offer.currency
  }
}

output "servers" {
  description = "Each server's addresses and state."
  value = {
    for s in compute_instance.web : s.name => {
      id    = s.id
      state = s.state
      ipv4  = s.ipv4_address
      ipv6  = s.ipv6_address
    }
  }
}
