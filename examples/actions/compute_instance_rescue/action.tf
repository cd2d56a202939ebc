# A rented Hetzner Robot server, claimed as it is by compute_instance. The
# account's ssh_key is the key Robot's rescue system admits for root.
resource "compute_provider_account" "robot" {
  name = "prod-robot"
  hetzner_robot = {
    user     = "env://ROBOT_USER"
    password = "env://ROBOT_PASSWORD"
    ssh_key  = "d4:1c:7b:52:9e:03:aa:61:0f:88:2b:c3:5e:19:70:ee"
  }
}

resource "compute_instance" "db" {
  account  = compute_provider_account.robot.id
  name     = "db-1"
  offer_id = "AX42"
  image    = "Ubuntu-2404-noble-amd64-base"
}

# Boots compute_instance.db into Robot's rescue system, without changing its
# configuration:
#
#   terraform apply -invoke=action.compute_instance_rescue.db
#
# then log in with the account's key: ssh root@<compute_instance.db.ipv4>.
# The next plan is empty; the next reboot starts the server's disks again.
action "compute_instance_rescue" "db" {
  config {
    instance = compute_instance.db
  }
}

# A Hetzner Cloud server. rescue_ssh_keys names the project SSH keys (by name
# or id, as `hcloud ssh-key list` shows them) the rescue system admits for
# root; an account without it is refused at plan.
resource "compute_provider_account" "cloud" {
  name = "prod-cloud"
  hetzner_cloud = {
    token           = "env://HCLOUD_TOKEN"
    rescue_ssh_keys = "ops,ci"
  }
}

resource "compute_instance" "web" {
  account  = compute_provider_account.cloud.id
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}

# terraform apply -invoke=action.compute_instance_rescue.web, then, once SSH
# answers, ssh root@<compute_instance.web.ipv4> with one of those keys. An
# interrupted invocation may leave rescue armed: invoke it again, or
# withdraw it with `hcloud server disable-rescue web-1`.
action "compute_instance_rescue" "web" {
  config {
    instance = compute_instance.web
  }
}
