resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
  }
}

# An ephemeral variable is never written to a plan file or to state; set it
# with TF_VAR_cloud_init in CI.
variable "cloud_init" {
  type      = string
  ephemeral = true
}

resource "compute_instance" "worker" {
  account  = compute_provider_account.cloud.id
  name     = "worker-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"

  # Write-only: sent on create, never stored. State keeps its SHA-256 as
  # user_data_sha256, so a new value replaces the machine.
  user_data = var.cloud_init
}
