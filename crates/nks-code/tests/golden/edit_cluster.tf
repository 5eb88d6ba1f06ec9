# Terraform updates nirvana_nks_cluster.prod-2 in place: name, autoscaling.
# A change to kubernetes_version or project_id or region or vpc_id would replace it instead (destroyed, then made again);
# for a pool, make the new one first, drain the old one, then delete it.
resource "nirvana_nks_cluster" "prod-2" {
  autoscaling        = false
  kubernetes_version = "1.31"
  name               = "prod-2"
  project_id         = "project-1"
  region             = "us-sva-2"
  vpc_id             = "vpc-1"
  tags               = ["production"]
}
