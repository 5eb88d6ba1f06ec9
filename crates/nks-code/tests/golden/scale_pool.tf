# Terraform updates nirvana_nks_node_pool.web in place: node_count.
resource "nirvana_nks_node_pool" "web" {
  cluster_id = "cluster-1"
  name       = "web"
  node_count = 5
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
