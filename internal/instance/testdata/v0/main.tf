provider "compute" {}
resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://{{TOKEN_ENV}}"
    endpoint = "{{ENDPOINT}}"
    location = "fsn1"
  }
}
resource "compute_instance" "web" {
  account  = compute_provider_account.cloud.id
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  labels   = { role = "web" }
}
