# Ephemeral: Terraform keeps its value out of plan files and state.
variable "hcloud_token" {
  type      = string
  ephemeral = true
}

# Secrets that are Terraform values (a variable, another provider's output)
# go through the provider block's secrets map.
provider "compute" {
  secrets = {
    hcloud = var.hcloud_token
  }
}

# An environment variable of the process that runs Terraform.
resource "compute_provider_account" "from_env" {
  name = "from-env"
  hetzner_cloud = {
    token = "env://HCLOUD_TOKEN"
  }
}

# A file, trailing newline removed: a Docker or Kubernetes secret, a tmpfs.
resource "compute_provider_account" "from_file" {
  name = "from-file"
  hetzner_cloud = {
    token = "file:///run/secrets/hcloud_token"
  }
}

# An entry of the provider block's secrets map.
resource "compute_provider_account" "from_provider" {
  name = "from-provider"
  hetzner_cloud = {
    token = "provider://hcloud"
  }
}
