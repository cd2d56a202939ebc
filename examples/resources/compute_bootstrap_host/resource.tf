resource "compute_provider_account" "robot" {
  name = "prod-robot"
  hetzner_robot = {
    user            = "env://ROBOT_USER"
    password        = "env://ROBOT_PASSWORD"
    ssh_key         = "d4:1c:7b:52:9e:03:aa:61:0f:88:2b:c3:5e:19:70:ee"
    ssh_private_key = "file:///home/deploy/.ssh/robot_ed25519"
  }
}

variable "db_password" {
  type      = string
  ephemeral = true
}

resource "compute_bootstrap_host" "db" {
  account  = compute_provider_account.robot.id
  hostname = "db-1"
  # A rented server by its number; or offer_id = "AX41-NVMe" to take a
  # free one of that offer.
  machine_id = "321456"
  image      = "Ubuntu-2404-noble-amd64-base"
  disks      = "raid1"

  files = [
    {
      # Resolved by the provider when the file is delivered; the reference
      # is shown in the plan, its value never is.
      path   = "/etc/app/token"
      secret = "env://APP_TOKEN"
    },
    {
      # Write-only: never stored. Bump the version to deliver a new value
      # (that reinstalls the host).
      path               = "/etc/app/db-password"
      mode               = "0400"
      content_wo         = var.db_password
      content_wo_version = 1
    },
  ]

  first_boot = {
    url     = "https://releases.example.com/agent/1.4.2/agent-linux-amd64"
    sha256  = "5f2b3c0e9d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c"
    command = ["/usr/local/bin/agent", "--config=/etc/app/token"]
  }

  timeouts {
    create     = "90m"
    installing = "40m"
  }
}

# Pin the installed system's host key: ssh -o UserKnownHostsFile=db.known_hosts root@…
output "db_known_hosts" {
  value = compute_bootstrap_host.db.known_hosts
}
