# Bring an existing server under management. The import id is the account's id, a
# slash, and the server's id at Hetzner Cloud. Write the resource block by
# hand, or let `terraform plan -generate-config-out=generated.tf` write it.
import {
  to = compute_instance.legacy
  id = "${compute_provider_account.cloud.id}/4711"
}
