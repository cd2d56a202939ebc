# An instance's id is the machine's own id at the backend (the Hetzner Cloud
# server id here); its import id is the account's id, a slash, and that id.
# Take the account's id from `terraform output -raw` of an output holding
# compute_provider_account.cloud.id, or from `terraform show -json` (`state
# show` prints it as jsonencode({...})); an import block can refer to it.
terraform import compute_instance.legacy '{"endpoint":"https://api.hetzner.cloud/v1","kind":"hcloud","location":"fsn1","name":"prod-cloud","token":"env://HCLOUD_TOKEN"}/4711'
