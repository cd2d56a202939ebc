terraform {
  required_version = ">= 1.11"
  required_providers {
    compute = {
      source = "seedcompute/compute"
    }
  }
}

# The provider block holds no account settings: each compute_provider_account
# carries its own. It may hold secrets that accounts read as provider://NAME,
# for when a secret arrives as a Terraform variable rather than through the
# environment of the process that runs Terraform.
provider "compute" {
  secrets = {
    hcloud = var.hcloud_token
  }
}

variable "hcloud_token" {
  description = "Hetzner Cloud API token (read & write)."
  type        = string
  sensitive   = true
}
