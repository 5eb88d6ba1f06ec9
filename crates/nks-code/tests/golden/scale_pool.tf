# Terraform updates nirvana_nks_node_pool.web in place: node_count.
# A change to cluster_id or node_config would replace it instead (destroyed, then made again);
# for a pool, make the new one first, drain the old one, then delete it.
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
