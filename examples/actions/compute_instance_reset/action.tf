# Resets a hung compute_instance.web: cuts the power and starts it again at
# once, without asking the guest:
#
#   terraform apply -invoke=action.compute_instance_reset.web
action "compute_instance_reset" "web" {
  config {
    instance = compute_instance.web
    timeout  = "5m"
  }
}
