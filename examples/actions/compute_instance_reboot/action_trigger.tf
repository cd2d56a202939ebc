# Reboots the instance whenever an apply changes it in place (a new label,
# say), from the instance's own lifecycle. The condition leaves out an apply
# that switches the machine off (power = "off"): a reboot acts on a running
# machine only, and would fail that apply.
resource "compute_instance" "app" {
  account  = compute_provider_account.cloud.id
  name     = "app-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  labels   = { config_version = "1" }

  lifecycle {
    action_trigger {
      events    = [after_update]
      condition = compute_instance.app.power == "on"
      actions   = [action.compute_instance_reboot.app]
    }
  }
}

action "compute_instance_reboot" "app" {
  config {
    instance = compute_instance.app
  }
}
