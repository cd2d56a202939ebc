# An account's id is its configuration (adapter, name, settings and secret
# references, never secrets), so importing only records it in state:
terraform import compute_provider_account.cloud '{"endpoint":"https://api.hetzner.cloud/v1","kind":"hcloud","location":"fsn1","name":"prod-cloud","rescue_ssh_keys":"ops,ci","token":"env://HCLOUD_TOKEN"}'
