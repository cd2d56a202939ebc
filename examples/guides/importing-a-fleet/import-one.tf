resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
  }
}

# Server 4711 of the project, made in the console. The account's id is known
# at plan time, so the import id can be built from it.
import {
  to = compute_instance.legacy
  id = "${compute_provider_account.cloud.id}/4711"
}

# Written as the server is (hcloud server describe 4711), so that the import
# plans no change but the provider's mark.
resource "compute_instance" "legacy" {
  account  = compute_provider_account.cloud.id
  name     = "legacy-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  location = "fsn1"
}

# For `terraform import` on the command line: terraform output -raw cloud_account_id
output "cloud_account_id" {
  value = compute_provider_account.cloud.id
}
