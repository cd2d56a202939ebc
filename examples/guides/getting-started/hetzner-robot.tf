# A Hetzner Robot account: a webservice user (Robot → Settings → Web service
# and app settings), and an SSH key that Robot knows (Key management) for the
# rescue system the bootstrap logs in to.
resource "compute_provider_account" "metal" {
  name = "prod-metal"
  hetzner_robot = {
    user            = "env://HETZNER_ROBOT_USER"
    password        = "env://HETZNER_ROBOT_PASSWORD"
    ssh_key         = "d4:1c:7b:52:9e:03:aa:61:0f:88:2b:c3:5e:19:70:ee"
    ssh_private_key = "file:///home/deploy/.ssh/robot_ed25519"
  }
}

# One rented server, by the number Robot shows, installed from its rescue
# system.
resource "compute_bootstrap_host" "db" {
  account    = compute_provider_account.metal.id
  hostname   = "db-1"
  machine_id = "321456"
  image      = "Ubuntu-2404-noble-amd64-base"

  first_boot = {
    url     = "https://releases.example.com/agent/1.4.2/agent-linux-amd64"
    sha256  = "5f2b3c0e9d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c"
    command = ["/usr/local/bin/agent", "join"]
  }
}
