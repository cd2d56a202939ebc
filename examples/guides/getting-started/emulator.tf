terraform {
  required_providers {
    compute = {
      source = "seedcompute/compute"
    }
  }
}

# The emulator's Hetzner Cloud API, as `make emulator` prints it on its
# "hcloud" line. It accepts the token demo-token: export HCLOUD_TOKEN=demo-token.
resource "compute_provider_account" "demo" {
  name = "demo"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    endpoint = "http://127.0.0.1:8080/v1"
    location = "fsn1"
  }
}

# What the account can create in fsn1 with at least 2 vCPU, cheapest first.
data "compute_offers" "small" {
  accounts = [compute_provider_account.demo.id]
  location = "fsn1"
  min_vcpu = 2
}

resource "compute_instance" "first" {
  account  = compute_provider_account.demo.id
  name     = "first-1"
  offer_id = [for o in data.compute_offers.small.offers : o.id if o.available][0]
  image    = "ubuntu-24.04"

  labels = {
    env = "try"
  }
}

output "first" {
  value = {
    id    = compute_instance.first.id
    state = compute_instance.first.state
    ipv4  = compute_instance.first.ipv4_address
  }
}
