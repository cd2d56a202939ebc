resource "compute_provider_account" "metal" {
  name = "prod-metal"
  hetzner_robot = {
    user            = "env://HETZNER_ROBOT_USER"
    password        = "env://HETZNER_ROBOT_PASSWORD"
    ssh_key         = "d4:1c:7b:52:9e:03:aa:61:0f:88:2b:c3:5e:19:70:ee"
    ssh_private_key = "file:///home/deploy/.ssh/robot_ed25519"
    # Destroy releases the server and keeps renting it (the default). "true"
    # cancels the rental on destroy and on every replacement.
    cancel_on_destroy = "false"
  }
}

resource "compute_bootstrap_host" "node" {
  account    = compute_provider_account.metal.id
  hostname   = "node-1"
  machine_id = "321456"
  image      = "Ubuntu-2404-noble-amd64-base"
  disks      = "raid1"

  files = [{
    path   = "/etc/agent/join-token"
    secret = "env://JOIN_TOKEN"
  }]

  first_boot = {
    url     = "https://releases.example.com/agent/1.4.2/agent-linux-amd64"
    sha256  = "5f2b3c0e9d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c"
    command = ["/usr/local/bin/agent", "join", "--token-file=/etc/agent/join-token"]
  }

  # Ready once the agent answers, not merely once its unit has run.
  ready_command = ["/usr/local/bin/agent", "status"]

  # Each phase has its own bound; their sum stays below create.
  timeouts {
    create     = "90m"
    rescue     = "15m"
    installing = "40m"
    rebooting  = "15m"
    ready      = "10m"
  }
}

output "node" {
  value = {
    phase       = compute_bootstrap_host.node.phase
    ipv4        = compute_bootstrap_host.node.ipv4
    known_hosts = compute_bootstrap_host.node.known_hosts
  }
}
