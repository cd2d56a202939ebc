resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token    = "env://HCLOUD_TOKEN"
    location = "fsn1"
  }
}

# Servers with at least 2 vCPU and 4 GiB in fsn1, cheapest first.
data "compute_offers" "small" {
  accounts       = [compute_provider_account.cloud.id]
  location       = "fsn1"
  min_vcpu       = 2
  min_memory_gib = 4
}

locals {
  # An offer can be sold out in a location: take the cheapest one on sale.
  cheapest_available = [for o in data.compute_offers.small.offers : o if o.available][0]

  # What the machine reads only when it boots: a change restarts it.
  boot_config = "net.core.somaxconn=4096"
}

resource "compute_instance" "web" {
  account  = compute_provider_account.cloud.id
  name     = "web-1"
  offer_id = local.cheapest_available.id
  image    = "ubuntu-24.04"
  location = "fsn1"

  # Write-only: sent to the backend on create, never stored in state. Its
  # SHA-256 is kept as user_data_sha256, so an edit replaces the machine.
  # A saved plan file still holds this literal: pass user data that holds a
  # secret with file() or an ephemeral variable instead.
  user_data = <<-EOT
    #cloud-config
    packages: [nginx]
    runcmd:
      - systemctl enable --now nginx
  EOT

  labels = {
    role = "web"
  }

  # power = "off" asks the guest to shut down, and cuts the power if the
  # machine is not off within shutdown_timeout ("0s" cuts it at once).
  power            = "on"
  shutdown_timeout = "2m"

  # A change of any value restarts the machine in place, without replacing
  # it: a reboot, or a hard reset if the reboot takes longer than
  # shutdown_timeout.
  triggers_restart = {
    boot_config = sha256(local.boot_config)
  }

  timeouts {
    create = "15m"
    delete = "10m"
  }
}

output "web_ipv4" {
  value = compute_instance.web.ipv4_address
}

# What can be done to the machine now, e.g. ["power_off", "shutdown", "reboot", "reset"].
output "web_available_actions" {
  value = compute_instance.web.available_actions
}
