resource "nirvana_networking_vpc" "edge" {
  name        = "edge"
  project_id  = "project-1"
  region      = "us-sva-2"
  subnet_name = "edge-subnet"
}

resource "nirvana_nks_cluster" "prod" {
  autoscaling        = true
  kubernetes_version = "1.31"
  name               = "prod"
  project_id         = "project-1"
  region             = "us-sva-2"
  vpc_id             = nirvana_networking_vpc.edge.id
  tags               = ["production"]
}

resource "nirvana_nks_node_pool" "web" {
  cluster_id = nirvana_nks_cluster.prod.id
  name       = "web"
  node_count = 3
  node_config = {
    instance_type = "n1-standard-4"
    boot_volume = {
      size = 100
      type = "abs"
    }
    labels = ["tier=web"]
    taints = ["dedicated=web:NoSchedule"]
  }
  tags = ["team"]
}
