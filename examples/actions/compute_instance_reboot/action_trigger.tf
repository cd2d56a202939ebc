# Reboots the instance whenever an apply changes it in place (a new label,
# say), from the instance's own lifecycle.
resource "compute_instance" "app" {
  account  = compute_provider_account.cloud.id
  name     = "app-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  labels   = { config_version = "1" }

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.compute_instance_reboot.app]
    }
  }
}

action "compute_instance_reboot" "app" {
  config {
    instance = compute_instance.app
  }
}
