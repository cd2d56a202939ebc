terraform {
  required_providers {
    compute = {
      # OpenTofu reads this as registry.opentofu.org/seedcompute/compute,
      # Terraform as registry.terraform.io/seedcompute/compute.
      source = "seedcompute/compute"
    }
  }
}

resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
  }
}

resource "compute_instance" "web" {
  account  = compute_provider_account.cloud.id
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
